/**
 * The MongoDB-wire server the suites run against: TEST_MONGO_URL, which `npm test` sets to its fresh FerretDB, or to
 * the MongoDB it was pointed at (TEST_EXTERNAL_MONGO_URL, docs/operations.md); 127.0.0.1:27018 for a bare `npx jest`.
 */
export function testMongoUrl(): string {
  return process.env.TEST_MONGO_URL || 'mongodb://127.0.0.1:27018';
}

/**
 * `url` with `database` as its path, its hosts, credentials and options kept:
 * mongodb://h:27017/?replicaSet=rs0 and x give mongodb://h:27017/x?replicaSet=rs0 (a plain `${url}/${x}` would not).
 */
export function withDatabase(url: string, database: string): string {
  const [hosts, query] = url.split('?');
  const base = hosts.replace(/^(mongodb(?:\+srv)?:\/\/[^/]+).*$/, '$1');
  return `${base}/${database}${query ? `?${query}` : ''}`;
}
