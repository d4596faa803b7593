import { Link } from 'react-router-dom';
import { IconPhone } from '@/components/icons';
import { NewsletterForm } from '@/features/newsletter/NewsletterForm';
import { SHOP_LINKS, SHOP_PHONE, SHOP_PHONE_HREF, STORE_NAME } from '@/lib/shop';
import { SocialLinks } from './Topbar';

const SUPPORT = ['Contact Us', 'About Us', 'FAQs', 'Features'];

export function Footer() {
  return (
    <footer className="render-near-viewport border-t border-gray-200 bg-white">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:grid-cols-2 lg:grid-cols-4">
        <section aria-labelledby="footer-newsletter">
          <h2 id="footer-newsletter" className="mb-4 text-lg font-semibold">
            Newsletter
          </h2>
          <p className="mb-3 text-sm text-gray-600">
            Be the first to hear about new kits, exclusive events and online offers.
          </p>
          <p className="mb-4 text-sm font-semibold">Sign up and get 10% off your first order.</p>
          <NewsletterForm />
        </section>
        <nav aria-labelledby="footer-shop">
          <h2 id="footer-shop" className="mb-4 text-lg font-semibold">
            Shop
          </h2>
          <ul className="space-y-2 text-sm text-gray-700">
            {SHOP_LINKS.map((link) => (
              <li key={link.label}>
                <Link to={link.to} className="hover:text-black hover:underline">
                  {link.footer}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-labelledby="footer-support">
          <h2 id="footer-support" className="mb-4 text-lg font-semibold">
            Support
          </h2>
          <ul className="space-y-2 text-sm text-gray-700">
            {SUPPORT.map((label) => (
              <li key={label}>
                {/* placeholders that lead nowhere (yet): docs/product.md#footer */}
                <a href="#" onClick={(e) => e.preventDefault()} className="hover:text-black hover:underline">
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <section aria-labelledby="footer-follow">
          <h2 id="footer-follow" className="mb-4 text-lg font-semibold">
            Follow Us
          </h2>
          <SocialLinks className="mb-6 text-gray-700 [&_svg]:h-6 [&_svg]:w-6" />
          <p className="text-sm text-gray-600">Call Us</p>
          <a href={SHOP_PHONE_HREF} className="inline-flex items-center gap-2 text-sm font-semibold hover:underline">
            <IconPhone className="h-4 w-4" />
            {SHOP_PHONE}
          </a>
        </section>
      </div>
      <div className="border-t border-gray-200 py-6 text-center text-sm text-gray-600">
        © 2025, {STORE_NAME}. All Rights Reserved.
      </div>
    </footer>
  );
}
