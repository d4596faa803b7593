export * from './merge';
export * from './serve';
