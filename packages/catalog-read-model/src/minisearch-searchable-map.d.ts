// MiniSearch's radix tree, which the package exports as 'minisearch/SearchableMap': this package's TypeScript
// resolves modules the Node 10 way, which does not read a package's "exports", so the types are pointed to here.
declare module 'minisearch/SearchableMap' {
  import SearchableMap from 'minisearch/dist/es/SearchableMap';
  export default SearchableMap;
}
