export { EventBus } from './event-bus';
export { type BroadcastHandlers, type BroadcastOptions } from './broadcast-listener';
export {
  consumerTopology,
  EVENT_HEADERS,
  type EventBusLogger,
  type EventBusOptions,
  type EventContext,
  type EventHandler,
  type EventHandlers,
  type EventPublishOptions,
  type EventSubscribeOptions,
} from './event-bus.types';
export { EVENT_BUS_OPTIONS, EventsModule, type EventsModuleAsyncOptions } from './events.module';
export {
  MongoProcessedEventStore,
  PROCESSED_EVENTS_COLLECTION,
  type ProcessedEventRecord,
} from './mongo-processed-event.store';
export { InMemoryProcessedEventStore, type ProcessedEventStore } from './processed-event.store';
export { topicMatches } from './topic-pattern';
export { DeadLetters, type DeadLetter } from './dead-letters';
export {
  OutboxEntrySchema,
  OutboxRelay,
  outboxAsRead,
  outboxEntry,
  type OutboxDocument,
  type OutboxEntry,
  type OutboxRelayOptions,
} from './outbox';
