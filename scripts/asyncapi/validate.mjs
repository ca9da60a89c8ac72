// validate.mjs FILE... — parses each AsyncAPI document with @asyncapi/parser
// (with the Avro schema parser registered) and prints every diagnostic as
// FILE: severity: message (path). Exits 1 when any document has an error or
// a warning, 0 when none has any, 2 on a usage error.
//
// The parser is resolved from ACEMQ_ASYNCAPI_PARSER (the node_modules
// directory scripts/test.sh installs into), else from next to this script.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node validate.mjs FILE...');
  process.exit(2);
}
const base = process.env.ACEMQ_ASYNCAPI_PARSER || path.join(path.dirname(new URL(import.meta.url).pathname), 'node_modules');
const require = createRequire(path.join(base, 'noop.js'));
const { Parser } = require('@asyncapi/parser');
const { AvroSchemaParser } = require('@asyncapi/avro-schema-parser');

const parser = new Parser();
parser.registerSchemaParser(AvroSchemaParser());
const severities = ['error', 'warning', 'info', 'hint'];
let bad = 0;
for (const file of files) {
  const { diagnostics } = await parser.parse(await readFile(file, 'utf8'), { source: path.resolve(file) });
  let errors = 0, warnings = 0;
  for (const d of diagnostics) {
    const sev = severities[d.severity] ?? String(d.severity);
    if (d.severity === 0) errors++;
    if (d.severity === 1) warnings++;
    if (d.severity <= 1) console.log(`${file}: ${sev}: ${d.message} (${(d.path || []).join('.')}) [${d.code}]`);
  }
  if (errors + warnings > 0) bad++;
}
console.log(`asyncapi-validate: ${files.length} document(s), ${bad} with errors or warnings`);
process.exit(bad > 0 ? 1 : 0);
