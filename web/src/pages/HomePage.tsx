import { lazy, Suspense, useEffect } from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch, useDeferredSelector } from '@/app/hooks';
import { IconLock, IconReturn, IconTruck } from '@/components/icons';
import { fetchBestSeller, fetchTopWomen } from '@/features/catalog/catalogSlice';
import { NewArrivals } from '@/features/catalog/NewArrivals';
import { ProductGrid } from '@/features/catalog/ProductGrid';
import { HIGH_PRIORITY } from '@/lib/html';
import { reloadForNewBuild } from '@/lib/reload';
import { usePageMeta } from '@/lib/usePageMeta';

function Hero() {
  return (
    <section className="relative overflow-hidden bg-green-900" aria-labelledby="hero-title">
      <img
        src="/img/hero.svg"
        alt=""
        width={1600}
        height={700}
        {...HIGH_PRIORITY}
        className="absolute inset-0 h-full w-full object-cover object-[70%_50%]"
      />
      <div className="absolute inset-0 bg-gradient-to-r from-black/60 via-black/30 to-transparent" aria-hidden="true" />
      <div className="relative mx-auto flex min-h-[420px] max-w-7xl flex-col justify-center px-4 py-16 text-white md:min-h-[560px]">
        <p className="mb-2 text-sm font-semibold tracking-widest uppercase">New season kits are here</p>
        <h1 id="hero-title" className="mb-4 max-w-xl text-5xl leading-none font-extrabold uppercase md:text-7xl">
          Game day <br /> ready
        </h1>
        <p className="mb-8 max-w-md text-lg">
          Jerseys, fleeces and gear from your team, with fast worldwide shipping and prices in pounds.
        </p>
        <Link
          to="/collections/all?"
          className="self-start rounded-lg bg-white px-8 py-3 text-lg font-semibold text-black hover:bg-gray-100"
        >
          Shop Now
        </Link>
      </div>
    </section>
  );
}

function GenderCollections() {
  const tiles = [
    { title: "Men's Collection", to: '/collections/all?gender=Men', image: '/img/men.svg' },
    { title: "Women's Collection", to: '/collections/all?gender=Women', image: '/img/women.svg' },
  ];
  return (
    <section className="mx-auto grid max-w-7xl gap-6 px-4 py-12 md:grid-cols-2" aria-label="Collections">
      {tiles.map((tile) => (
        <Link key={tile.title} to={tile.to} className="group relative block overflow-hidden rounded-lg">
          <img
            src={tile.image}
            alt=""
            width={800}
            height={700}
            loading="lazy"
            className="aspect-[8/7] w-full object-cover transition-transform duration-300 group-hover:scale-105"
          />
          <div className="absolute bottom-6 left-6 rounded bg-white/95 p-4">
            <h2 className="mb-1 text-xl font-bold text-gray-900">{tile.title}</h2>
            <span className="text-gray-900 underline">Shop Now</span>
          </div>
        </Link>
      ))}
    </section>
  );
}

/**
 * The Best Seller's details (gallery, pickers, Add to cart) are far below the first screen and need the product
 * from the API first: their code loads beside that request instead of with the page (issue 27: first-route JS).
 */
const loadProductDetails = () =>
  import('@/features/catalog/ProductDetails').catch((error: unknown) => reloadForNewBuild(error));
const ProductDetails = lazy(() => loadProductDetails().then((m) => ({ default: m.ProductDetails })));

function BestSeller() {
  const dispatch = useAppDispatch();
  const { data: product, status, error } = useDeferredSelector((s) => s.catalog.bestSeller);
  useEffect(() => {
    void loadProductDetails();
    void dispatch(fetchBestSeller());
  }, [dispatch]);
  const loading = <p className="text-center text-gray-600">Loading...</p>;
  return (
    <section className="mx-auto max-w-7xl px-4 py-12" aria-labelledby="best-seller">
      <h2 id="best-seller" className="mb-8 text-center text-3xl font-bold">
        Best Seller
      </h2>
      {product ? (
        <Suspense fallback={loading}>
          <ProductDetails key={product._id} product={product} headingLevel={2} eagerImage={false} />
        </Suspense>
      ) : status === 'failed' ? (
        <p className="text-center text-red-700">Error: {error}</p>
      ) : (
        loading
      )}
    </section>
  );
}

function TopWomen() {
  const dispatch = useAppDispatch();
  const { data, status, error } = useDeferredSelector((s) => s.catalog.topWomen);
  useEffect(() => {
    void dispatch(fetchTopWomen());
  }, [dispatch]);
  return (
    <section className="mx-auto max-w-7xl px-4 py-12" aria-labelledby="top-women">
      <h2 id="top-women" className="mb-8 text-center text-3xl font-bold">
        Top Wears for Women
      </h2>
      <ProductGrid products={data} loading={status === 'loading' || status === 'idle'} error={error} eager={0} />
    </section>
  );
}

function FeatureBanner() {
  return (
    <section className="render-near-viewport mx-auto max-w-7xl px-4 py-12" aria-labelledby="feature-banner">
      <div className="grid items-center overflow-hidden rounded-3xl bg-red-50 md:grid-cols-2">
        <div className="p-8 text-center md:p-12 md:text-left">
          <p className="mb-2 font-semibold text-gray-700">Comfort and style</p>
          <h2 id="feature-banner" className="mb-4 text-3xl font-bold md:text-4xl">
            Apparel made for your everyday life
          </h2>
          <p className="mb-6 text-gray-700">
            Soft fleeces, breathable training tees and retro classics: wear your colours from the first whistle to the
            weekend.
          </p>
          <Link
            to="/collections/all"
            className="inline-block rounded-lg bg-black px-6 py-3 font-semibold text-white hover:bg-gray-800"
          >
            Shop Now
          </Link>
        </div>
        <img
          src="/img/banner.svg"
          alt=""
          width={800}
          height={700}
          loading="lazy"
          className="h-full w-full object-cover"
        />
      </div>
    </section>
  );
}

function Assurances() {
  const items = [
    { Icon: IconTruck, title: 'Free international shipping', text: 'On all orders over £50' },
    { Icon: IconReturn, title: '45 days return', text: 'Money back guarantee' },
    { Icon: IconLock, title: 'Secure checkout', text: '100% secured checkout process' },
  ];
  return (
    <section
      className="render-near-viewport mx-auto grid max-w-7xl gap-8 px-4 py-16 text-center md:grid-cols-3"
      aria-label="Why shop with us"
    >
      {items.map(({ Icon, title, text }) => (
        <div key={title} className="flex flex-col items-center">
          <span className="mb-4 rounded-full bg-gray-100 p-4">
            <Icon className="h-7 w-7" />
          </span>
          <h3 className="mb-1 font-semibold tracking-tight uppercase">{title}</h3>
          <p className="text-sm text-gray-600">{text}</p>
        </div>
      ))}
    </section>
  );
}

export default function HomePage() {
  usePageMeta(undefined);
  return (
    <>
      <Hero />
      <GenderCollections />
      <NewArrivals />
      <BestSeller />
      <TopWomen />
      <FeatureBanner />
      <Assurances />
    </>
  );
}
