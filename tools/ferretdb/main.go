// Command ferretdb-dev runs FerretDB v1 (a MongoDB wire-protocol server) on SQLite
// for development and tests. Production uses real MongoDB; this program exists
// because the development machines have no mongod.
//
// It embeds github.com/FerretDB/FerretDB/ferretdb rather than building
// cmd/ferretdb: the latter panics at start when built with `go install`
// (its generated version file is not part of the module).
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:27017", "TCP address to listen on")
	dataDir := flag.String("data", ".data/mongo", "directory for the SQLite databases (created if missing)")
	logLevel := flag.String("log-level", "warn", "log level: debug, info, warn, error")
	flag.Parse()

	dir, err := filepath.Abs(*dataDir)
	if err != nil {
		log.Fatalf("ferretdb-dev: bad data directory %q: %v", *dataDir, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		log.Fatalf("ferretdb-dev: cannot create data directory %q: %v", dir, err)
	}

	// FerretDB reads these for telemetry and its state file; keep both local and quiet.
	os.Setenv("FERRETDB_TELEMETRY", "disable")
	os.Setenv("DO_NOT_TRACK", "1")
	os.Setenv("FERRETDB_STATE_DIR", dir)

	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		log.Fatalf("ferretdb-dev: bad log level %q: %v", *logLevel, err)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))

	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: *listen},
		Logger:    logger,
		Handler:   "sqlite",
		SQLiteURL: "file:" + dir + "/",
	})
	if err != nil {
		log.Fatalf("ferretdb-dev: %v", err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	done := make(chan error, 1)
	go func() { done <- f.Run(ctx) }()

	fmt.Printf("ferretdb-dev listening on %s (data in %s)\n", *listen, dir)
	if err := <-done; err != nil && ctx.Err() == nil {
		log.Fatalf("ferretdb-dev: %v", err)
	}
}
