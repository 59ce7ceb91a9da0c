// The dashboard shows the server's rules before the server enforces them (which roles a person may give, invite or
// remove; which reply codes and stages chaos takes), so they must be the server's own: the dashboard imports them
// from src/domain/ through its door (.dependency-cruiser.js, DASHBOARD_DOOR). This test fails when a page keeps a
// copy of one instead, which is how the two came to disagree, and when the rules themselves leave the contract.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { CHAOS_BEHAVIOUR_STAGES, CHAOS_CODES, CHAOS_STAGES } from '../../src/domain/chaos.js';
import { ROLES } from '../../src/domain/roles.js';
import { roleValues } from '../../src/contract/api-types.js';
import { loadOpenApi } from '../../src/http/openapi.js';
import { PROJECT_ROOT } from '../../src/project-root.js';

const DASHBOARD_ROOT = path.join(PROJECT_ROOT, 'src', 'dashboard');

function dashboardSources(folder = DASHBOARD_ROOT): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return dashboardSources(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

const parse = (file: string) => ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);

/** Every node of a file, depth first. */
function nodesOf(source: ts.SourceFile): ts.Node[] {
  const nodes: ts.Node[] = [];
  const visit = (node: ts.Node): void => { nodes.push(node); ts.forEachChild(node, visit); };
  visit(source);
  return nodes;
}

const SERVER_CODES = new Set(Object.values(CHAOS_CODES).flat());
const STAGE_NAMES = new Set<string>(CHAOS_STAGES);
const ROLE_NAMES = new Set<string>(ROLES);

/** A literal list or table that restates one of the rules, with what it restates. */
function copiedRule(node: ts.Node): string | null {
  if (ts.isArrayLiteralExpression(node) && node.elements.length >= 2) {
    if (node.elements.every((element) => ts.isNumericLiteral(element) && SERVER_CODES.has(Number(element.text)))) return 'a list of chaos reply codes';
    if (node.elements.every((element) => ts.isStringLiteral(element) && STAGE_NAMES.has(element.text))) return 'a list of chaos stages';
  }
  if (ts.isObjectLiteralExpression(node)) {
    const ranked = node.properties.filter((property) => ts.isPropertyAssignment(property) && ts.isIdentifier(property.name)
      && ROLE_NAMES.has(property.name.text) && ts.isNumericLiteral(property.initializer));
    if (ranked.length >= 2) return 'a rank of roles';
  }
  return null;
}

describe('rules the dashboard shares with the server', () => {
  it('no dashboard module keeps its own copy of a rule (role ranks, chaos codes or stages)', () => {
    const copies = dashboardSources().flatMap((file) => {
      const source = parse(file);
      return nodesOf(source).flatMap((node) => {
        const rule = copiedRule(node);
        return rule === null ? [] : [`${path.relative(PROJECT_ROOT, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${rule}`];
      });
    });
    assert.deepEqual(copies, [], 'import the rule from src/domain/roles.ts or src/domain/chaos.ts instead');
  });

  it('the pages that show the rules take them from the domain', () => {
    const importsOf = (relative: string) => new Set(parse(path.join(DASHBOARD_ROOT, relative)).statements
      .filter(ts.isImportDeclaration)
      .flatMap((statement) => {
        const bindings = statement.importClause?.namedBindings;
        const from = (statement.moduleSpecifier as ts.StringLiteral).text;
        return bindings && ts.isNamedImports(bindings) ? bindings.elements.map((element) => `${path.basename(from)} ${element.name.text}`) : [];
      }));
    const expected: Record<string, string[]> = {
      'session.tsx': ['roles.js roleAtLeast'],
      'pages/team.tsx': ['roles.js roleChangeRefusal', 'roles.js removalRefusal', 'roles.js invitationRefusal'],
      'components/inbox-settings/chaos.tsx': ['chaos.js CHAOS_CODES', 'chaos.js CHAOS_BEHAVIOUR_STAGES'],
    };
    for (const [file, names] of Object.entries(expected)) {
      const imported = importsOf(file);
      assert.deepEqual(names.filter((name) => !imported.has(name)), [], `src/dashboard/${file} no longer imports these rules`);
    }
  });

  it('the rules are the contract\'s: its roles, and its chaos codes and stages', () => {
    assert.deepEqual([...ROLES].sort(), [...roleValues].sort());
    const schemas = (loadOpenApi().raw.components as { schemas: Record<string, { enum?: unknown[]; properties?: Record<string, { enum?: unknown[] }> }> }).schemas;
    assert.deepEqual([...CHAOS_BEHAVIOUR_STAGES], schemas.ChaosBehaviourStage!.enum);
    for (const stage of CHAOS_STAGES) {
      const name = `Chaos${stage[0]!.toUpperCase()}${stage.slice(1)}Trigger`;
      assert.deepEqual([...CHAOS_CODES[stage]], schemas[name]!.properties!.code!.enum, `${stage}'s codes`);
    }
  });
});
