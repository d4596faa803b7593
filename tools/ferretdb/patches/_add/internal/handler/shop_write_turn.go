// Added to FerretDB v1.24.2 for the shop's development server (tools/ferretdb/patches): see sqlite-atomic-writes.json.

package handler

import (
	"context"
	"sync"
)

// shopTurns holds one turn per database (name → chan struct{} of capacity 1) for the commands that read the
// documents they then write: update, findAndModify and delete. FerretDB v1 answers each of them by querying the
// filter, applying the change in Go and writing the documents back; without a turn, two such commands on one
// document both read it before either writes, so a condition is not rechecked and a $inc is lost. MongoDB applies
// every single-document write atomically; this gives the development server the same guarantee.
var shopTurns sync.Map

// shopWriteTurn waits for the database's turn and returns its release. It gives up when ctx ends (the client went
// away, or maxTimeMS passed), so a command waiting behind a stalled one never outlives its caller.
func shopWriteTurn(ctx context.Context, db string) (func(), error) {
	turn, _ := shopTurns.LoadOrStore(db, make(chan struct{}, 1))
	ch := turn.(chan struct{})

	select {
	case ch <- struct{}{}:
		return func() { <-ch }, nil
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}
