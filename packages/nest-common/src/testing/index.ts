export * from './http';
export * from './test-service';
