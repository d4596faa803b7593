// Added to FerretDB v1.24.2 for the shop's development server (tools/ferretdb/patches): see sqlite-schema-lock.json.

package metadata

import (
	"context"
	"sync"

	"github.com/FerretDB/FerretDB/internal/util/fsql"
	"github.com/FerretDB/FerretDB/internal/util/lazyerrors"
)

// shopSchemaLocks serialises the changes to one database's collections and indexes (creating a collection, building
// or dropping indexes, dropping or renaming a collection, dropping the database), so that an index build can run
// without the registry's lock: what it read of the metadata cannot change under it. One mutex per database name,
// made on first use and kept (a development server has a handful of databases).
type shopSchemaLocks struct {
	mu    sync.Mutex
	locks map[string]*sync.Mutex
}

// lock takes dbName's schema lock and returns what releases it. Take it before the registry's lock, never while
// holding it: a build holds it for seconds.
func (s *shopSchemaLocks) lock(dbName string) (unlock func()) {
	s.mu.Lock()

	if s.locks == nil {
		s.locks = map[string]*sync.Mutex{}
	}

	l := s.locks[dbName]
	if l == nil {
		l = new(sync.Mutex)
		s.locks[dbName] = l
	}

	s.mu.Unlock()

	l.Lock()

	return l.Unlock
}

// shopIndexesCreate is IndexesCreate's work: the caller holds dbName's schema lock, and the registry's lock is held
// only to create the collection if needed and copy its metadata, then to store the new metadata; SQLite's CREATE
// INDEX work, seconds on a big collection, runs without it, so requests to other databases, and reads, go on.
// Writes to the same database still wait for the build (sqlite-schema-lock.json says why).
func (r *Registry) shopIndexesCreate(ctx context.Context, dbName, collectionName string, indexes []IndexInfo) error {
	db, c, err := r.shopCollectionForBuild(ctx, dbName, collectionName)
	if err != nil {
		return err
	}

	// Created and recorded in one transaction; an index left by an older build is adopted (shop_index_build.go).
	if err = shopIndexesBuild(ctx, r.l, db, c, indexes); err != nil {
		return lazyerrors.Error(err)
	}

	// Committed: from now on queries may plan with the new indexes.
	r.shopCollectionStore(dbName, collectionName, c)

	return nil
}

// shopCollectionForBuild creates the collection when it does not exist yet (as upstream's build did) and returns its
// database and a copy of its metadata.
func (r *Registry) shopCollectionForBuild(ctx context.Context, dbName, collectionName string) (*fsql.DB, *Collection, error) {
	r.rw.Lock()
	defer r.rw.Unlock()

	if _, err := r.collectionCreate(ctx, &CollectionCreateParams{DBName: dbName, Name: collectionName}); err != nil {
		return nil, nil, lazyerrors.Error(err)
	}

	db := r.DatabaseGetExisting(ctx, dbName)
	if db == nil {
		panic("database does not exist")
	}

	c := r.collectionGet(dbName, collectionName)
	if c == nil {
		panic("collection does not exist")
	}

	return db, c, nil
}

// shopCollectionStore makes c the collection's metadata. The caller holds dbName's schema lock, so the collection
// is still there: nothing could drop or rename it since its metadata was read.
func (r *Registry) shopCollectionStore(dbName, collectionName string, c *Collection) {
	r.rw.Lock()
	defer r.rw.Unlock()

	r.colls[dbName][collectionName] = c
}

// ShopSchemaWait returns once the schema changes of dbName under way (an index build, say) are done: createIndexes
// and dropIndexes check their request against the indexes those leave, as upstream did by waiting on the registry.
func (r *Registry) ShopSchemaWait(dbName string) {
	r.shopSchema.lock(dbName)()
}
