// The V8 flags of the shop's Node processes: npm start and the test stack pass them (scripts/lib/stack.mjs), the
// Dockerfile, docker-compose.yml and k8s set the same (scripts/checks/deploy-config.spec.ts holds them to it).
'use strict';

/**
 * Every process: a young generation of 4 MB semi-spaces instead of V8's 16 MB, which each idle process had touched —
 * about 35 MB of RSS each (docs/performance.md, "Footprint").
 */
const NODE_FLAGS = '--max-semi-space-size=4';

/**
 * A process's own flags on top of NODE_FLAGS. orders streams exports of every order (CSV, JSON): what it allocates on
 * the way is garbage, but with small semi-spaces much of it outlives two scavenges, and V8 let its old space grow to
 * about three times the live heap (~115 MB) before collecting: RSS 215 MB while exporting 100,000 orders. A budget of
 * 128 MB (its live heap is ~40 MB while exporting) makes V8 collect sooner: 123 MB (docs/performance.md, "Admin
 * orders at 100,000 orders").
 */
const PROCESS_NODE_FLAGS = { orders: '--max-old-space-size=128' };

/** The NODE_OPTIONS of one of the shop's processes: a service's name, or 'gateway'. */
const nodeFlags = (name) => [NODE_FLAGS, PROCESS_NODE_FLAGS[name]].filter(Boolean).join(' ');

module.exports = { NODE_FLAGS, PROCESS_NODE_FLAGS, nodeFlags };
