// A cart as stored, changed and answered: plain TypeScript over @shop/contracts, no Nest, no database.
export * from './cart-lines';
export * from './guest-cart-writes';
export * from './priced-cart';
export * from './stored-cart';
