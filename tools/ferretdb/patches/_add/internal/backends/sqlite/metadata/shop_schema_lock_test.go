// Added to FerretDB v1.24.2 for the shop's development server (tools/ferretdb/patches): see sqlite-schema-lock.json.
// Not run by npm test; after a build, from tools/ferretdb (FerretDB's tests want build/version/version.txt):
//
//	echo v1.24.2 > ../../.tools/ferretdb-src/FerretDB@v1.24.2/build/version/version.txt
//	go test -modfile=../../.tools/ferretdb-src/go.mod -race -run TestShopSchemaLockStress \
//	  github.com/FerretDB/FerretDB/internal/backends/sqlite/metadata/

package metadata

import (
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/FerretDB/FerretDB/internal/util/state"
	"github.com/FerretDB/FerretDB/internal/util/testutil"
	"github.com/FerretDB/FerretDB/internal/util/testutil/teststress"
)

// TestShopSchemaLockStress runs index builds and drops, collection creates, drops and renames, database drops and
// metadata reads on one collection at once: no data race (-race), no deadlock, no error but a rename onto a taken
// name, and at the end every index the registry lists is in SQLite.
func TestShopSchemaLockStress(t *testing.T) {
	ctx := testutil.Ctx(t)
	sp, err := state.NewProvider("")
	require.NoError(t, err)
	r, err := NewRegistry(testutil.TestSQLiteURI(t, ""), 100, testutil.Logger(t), sp)
	require.NoError(t, err)
	t.Cleanup(r.Close)

	var i atomic.Int32
	teststress.StressN(t, 60, func(ready chan<- struct{}, start <-chan struct{}) {
		id := i.Add(1)
		ready <- struct{}{}
		<-start
		for k := 0; k < 5; k++ {
			switch id % 6 {
			case 0:
				require.NoError(t, r.IndexesCreate(ctx, "db", "c", []IndexInfo{{Name: "a_1", Key: []IndexKeyPair{{Field: "a"}}}, {Name: fmt.Sprintf("b%d", id%3), Key: []IndexKeyPair{{Field: "b"}, {Field: fmt.Sprintf("x%d", id%3)}}}}))
			case 1:
				require.NoError(t, r.IndexesDrop(ctx, "db", "c", []string{"a_1", "b0", "b1"}))
			case 2:
				_, err := r.CollectionDrop(ctx, "db", "c")
				require.NoError(t, err)
			case 3:
				if id%12 == 3 {
					r.DatabaseDrop(ctx, "db")
				} else {
					_, err := r.CollectionCreate(ctx, &CollectionCreateParams{DBName: "db", Name: "c"})
					require.NoError(t, err)
				}
			case 4:
				_, err := r.CollectionList(ctx, "db")
				require.NoError(t, err)
				r.CollectionGet(ctx, "db", "c")
			case 5:
				// the handler refuses a rename onto an existing name; the registry leaves it to SQLite's UNIQUE
				for _, names := range [][2]string{{"c", "d"}, {"d", "c"}} {
					if _, err := r.CollectionRename(ctx, "db", names[0], names[1]); err != nil {
						require.Contains(t, err.Error(), "UNIQUE constraint failed")
					}
				}
			}
		}
	})

	// the registry and SQLite agree at the end
	if c := r.CollectionGet(ctx, "db", "c"); c != nil {
		db := r.DatabaseGetExisting(ctx, "db")
		for _, idx := range c.Settings.Indexes {
			found, err := shopIndexDefinition(ctx, db, c.TableName+"_"+idx.Name)
			require.NoError(t, err)
			require.NotEmpty(t, found, idx.Name)
		}
	}
}
