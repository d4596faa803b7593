export * from './cart-answer';
export * from './cart-lines';
export * from './cart-product';
export * from './guest-writes';
export * from './priced-cart';
export * from './stored-cart';
