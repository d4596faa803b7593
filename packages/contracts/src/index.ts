export * from './cart';
export * from './catalog';
export * from './errors';
export * from './events';
export * from './identity';
export * from './messaging';
export * from './services';
