// Writes the OpenAPI documents from the code, after tsc: each service's (services/<name>/dist/openapi.json) from
// its controllers' and DTOs' @nestjs/swagger decorators, then the merged document of the /api surface that the
// gateway serves at GET /api/docs (gateway/dist/openapi.json). Nest runs each app in preview mode: modules are
// scanned, no provider is instantiated, nothing connects, no environment is read. One process for all five.
// Run by scripts/lib/build.mjs (when a dist is newer than the merged document) and by the Dockerfile's build stage.
// Node builtins only besides the built workspaces.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(ROOT, 'package.json'));

export const MERGED_DOCUMENT = path.join(ROOT, 'gateway/dist/openapi.json');

/** The dist folders whose output the documents come from (a newer file in one makes them stale). */
export function openApiInputs() {
  const { SERVICES } = require(path.join(ROOT, 'packages/contracts/dist/index.js'));
  return [
    'packages/contracts/dist',
    'packages/nest-common/dist',
    ...SERVICES.map((s) => `services/${s}/dist`),
    'gateway/dist/api-docs',
    'gateway/dist/routes.js',
  ].map((p) => path.join(ROOT, p));
}

export async function writeOpenApiDocuments() {
  require('reflect-metadata');
  const { SERVICES } = require(path.join(ROOT, 'packages/contracts/dist/index.js'));
  const { createServiceDocument } = require(path.join(ROOT, 'packages/nest-common/dist/index.js'));
  const { mergeApiDocuments } = require(path.join(ROOT, 'gateway/dist/api-docs/merge.js'));
  const documents = [];
  for (const service of SERVICES) {
    const { AppModule } = require(path.join(ROOT, `services/${service}/dist/app.module.js`));
    const document = await createServiceDocument(service, AppModule);
    fs.writeFileSync(
      path.join(ROOT, `services/${service}/dist/openapi.json`),
      `${JSON.stringify(document, null, 2)}\n`,
    );
    documents.push({ service, document });
  }
  const merged = mergeApiDocuments(documents);
  fs.writeFileSync(MERGED_DOCUMENT, `${JSON.stringify(merged, null, 2)}\n`);
  return { paths: Object.keys(merged.paths).length, services: documents.length };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const { paths, services } = await writeOpenApiDocuments();
    console.log(`[shop] OpenAPI: ${services} service documents, ${paths} public paths → gateway/dist/openapi.json`);
    process.exit(0); // Nest's scanned modules may hold a timer or two; nothing here needs to finish
  } catch (err) {
    console.error(`[shop] OpenAPI documents failed: ${err && err.stack ? err.stack : err}`);
    process.exit(1);
  }
}
