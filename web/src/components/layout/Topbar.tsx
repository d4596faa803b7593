import { SHOP_PHONE, SHOP_PHONE_HREF, SOCIAL_LINKS } from '@/lib/shop';
import { IconFacebook, IconInstagram, IconX } from '@/components/icons';

export const SOCIAL_ICONS = { Facebook: IconFacebook, Instagram: IconInstagram, 'X (Twitter)': IconX } as const;

export function SocialLinks({ className = '' }: { className?: string }) {
  return (
    <ul className={`flex items-center gap-3 ${className}`}>
      {SOCIAL_LINKS.map(({ name, href }) => {
        const Icon = SOCIAL_ICONS[name];
        return (
          <li key={name}>
            <a
              href={href}
              target="_blank"
              rel="noopener noreferrer"
              aria-label={`${name} (opens in a new tab)`}
              className="inline-flex rounded p-1 hover:opacity-80"
            >
              <Icon className="h-4 w-4" />
            </a>
          </li>
        );
      })}
    </ul>
  );
}

/** Worldwide shipping, the phone placeholder, social links (docs/product.md#the-shop). */
export function Topbar() {
  return (
    <div className="bg-brand text-white" data-testid="topbar">
      <div className="mx-auto flex max-w-7xl items-center justify-between gap-4 px-4 py-2 text-sm">
        <SocialLinks className="hidden md:flex" />
        <p className="flex-1 text-center">We ship worldwide — fast and reliable shipping!</p>
        <a href={SHOP_PHONE_HREF} className="hidden whitespace-nowrap hover:underline md:block">
          {SHOP_PHONE}
        </a>
      </div>
    </div>
  );
}
