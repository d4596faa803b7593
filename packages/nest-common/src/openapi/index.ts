export * from './decorators';
export * from './document';
export * from './schemas';
