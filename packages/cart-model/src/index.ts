export * from './cart-answer';
export * from './cart-product';
export * from './priced-cart';
export * from './stored-cart';
