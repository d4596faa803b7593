export { httpMetrics, routeTemplate, UNMATCHED_ROUTE } from './http-metrics';
export { MessagingMetrics, type DeadLetterReason } from './messaging-metrics';
export { MetricsModule } from './metrics.module';
export { LATENCY_BUCKETS, Metrics, secondsSince, type Counter, type Histogram } from './metrics';
export {
  collectionOf,
  MongoCommandMetrics,
  NO_COLLECTION,
  type CommandEnded,
  type CommandEvents,
  type CommandStarted,
} from './mongo-command-metrics';
