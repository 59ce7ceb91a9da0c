// No module re-types a wire shape: the schemas of openapi.yaml are typed once, in src/contract/ (generated), and every
// other module uses those types. A type, interface, enum or class named like a schema outside src/contract/ is a second
// description of the shape that can drift from the contract, so this test names each one it finds; a short name for
// the contract's own type (`type Inbox = Schemas['Inbox']`) is the contract's shape, not a second one.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { loadOpenApi } from '../../src/http/openapi.js';
import { PROJECT_ROOT } from '../../src/project-root.js';

const SOURCE_ROOT = path.join(PROJECT_ROOT, 'src');

/**
 * Declarations named like a schema that are not its wire shape: the domain's records, which the storage adapters
 * store and read (camelCase, Date, secrets and workspace ids the API never shows; presenters turn them into the
 * schemas), and the error table's codes, which also hold SMTP-only codes (test/unit/errors-contract.test.ts pins the
 * HTTP ones to the ErrorCode enum). Renaming the records touches every adapter; until then they are listed here, so
 * that no new one appears.
 */
const NOT_WIRE_SHAPES = new Set([
  'src/domain/types.ts Workspace', 'src/domain/types.ts Member', 'src/domain/types.ts Person', 'src/domain/types.ts Invitation',
  'src/domain/types.ts AuditEntry', 'src/domain/types.ts Inbox', 'src/domain/types.ts TagRule', 'src/domain/types.ts Webhook',
  'src/domain/types.ts Delivery', 'src/errors.ts ErrorCode',
]);
const CONTRACT_ROOT = path.join(SOURCE_ROOT, 'contract');

function sourceFiles(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return full === CONTRACT_ROOT ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** `type Name = Anything['Name']`: a short name for the contract's schema of that name. */
function aliasesItsSchema(node: ts.Node): boolean {
  if (!ts.isTypeAliasDeclaration(node) || !ts.isIndexedAccessTypeNode(node.type)) return false;
  const index = node.type.indexType;
  return ts.isLiteralTypeNode(index) && ts.isStringLiteral(index.literal) && index.literal.text === node.name.text;
}

/** Every named type declaration in a file, at any depth (a type declared inside a function re-types as much). */
function declaredTypeNames(file: string): { name: string; line: number }[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: { name: string; line: number }[] = [];
  const visit = (node: ts.Node): void => {
    const declaration = ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) || ts.isEnumDeclaration(node) || ts.isClassDeclaration(node);
    if (declaration && node.name && !aliasesItsSchema(node)) {
      found.push({ name: node.name.text, line: source.getLineAndCharacterOfPosition(node.name.getStart(source)).line + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('contract shapes', () => {
  let declarations: { file: string; name: string; line: number }[] = [];

  before(function parseSources() {
    // Parsing every source file takes a few seconds on a busy machine; the checks below only read the result.
    this.timeout(60_000);
    declarations = sourceFiles(SOURCE_ROOT).flatMap((file) => declaredTypeNames(file).map((found) => ({ file: path.relative(PROJECT_ROOT, file), ...found })));
  });

  it('no module outside src/contract/ declares a type named like a schema of openapi.yaml', () => {
    const schemas = new Set(Object.keys((loadOpenApi().raw.components as { schemas: Record<string, unknown> }).schemas));
    assert.ok(schemas.size > 0, 'openapi.yaml has no components.schemas');
    const retyped = declarations
      .filter(({ file, name }) => schemas.has(name) && !NOT_WIRE_SHAPES.has(`${file} ${name}`))
      .map(({ file, name, line }) => `${file}:${line} ${name}`);
    assert.deepEqual(retyped, [], 'use the contract\'s type (components[\'schemas\'][...] from src/contract/api-types.ts) instead of declaring one');
  });

  it('every declaration listed as not a wire shape still exists', () => {
    const declared = new Set(declarations.map(({ file, name }) => `${file} ${name}`));
    assert.deepEqual([...NOT_WIRE_SHAPES].filter((entry) => !declared.has(entry)), [], 'drop renamed or removed declarations from NOT_WIRE_SHAPES');
  });
});
