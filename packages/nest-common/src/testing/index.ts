export * from './http';
export * from './test-service';
export * from './wait-for';
export * from './tcp-proxy';
export * from './faults';
export * from './prometheus';
export * from './fault-expectations';
export * from './mongo-url';
