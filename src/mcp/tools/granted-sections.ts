// A view's sections that show another toolset's data (the visibility view's cited sources are the
// answers toolset's, the answers view's prompt totals the prompts toolset's): each is marked in its
// operation with `@include(if: $grants<Toolset>)`, a variable declared `Boolean = true`. The web
// app's pages (a person's session reads everything) run the operation as written; an MCP call
// sets each variable from the token's consent, so a section outside it is not even read, and the
// answer names what was left out (`withheld`) for the view to say so. The variables are not
// arguments: a caller cannot set them. Pure.
import { Kind, type OperationDefinitionNode, type SelectionSetNode, type VariableDefinitionNode } from 'graphql';
import { TOOLSETS, type Consent, type Toolset } from './toolsets.js';

export interface GrantedSection {
  /** The section's place in the answer: response keys joined with dots (`node.sources`). */
  path: string;
  toolset: Toolset;
  variable: string;
}

const GRANT_VARIABLE = /^grants([A-Z][A-Za-z]*)$/;

export const isGrantVariable = (variable: VariableDefinitionNode) => GRANT_VARIABLE.test(variable.variable.name.value);

function toolsetOf(variable: string, where: string): Toolset {
  const name = GRANT_VARIABLE.exec(variable)![1]!
    .replace(/([a-z])([A-Z])/g, '$1_$2')
    .toLowerCase();
  if (!(TOOLSETS as readonly string[]).includes(name)) {
    throw new Error(`${where}: $${variable} names no toolset (${TOOLSETS.join(', ')})`);
  }
  return name as Toolset;
}

/**
 * The operation's granted sections; throws at start for a grant variable that is not
 * `Boolean = true` or marks nothing.
 */
export function grantedSections(operation: OperationDefinitionNode, where: string): GrantedSection[] {
  const sections: GrantedSection[] = [];
  const walk = (selectionSet: SelectionSetNode, path: string[]) => {
    for (const node of selectionSet.selections) {
      if (node.kind === Kind.INLINE_FRAGMENT) walk(node.selectionSet, path);
      if (node.kind !== Kind.FIELD) continue;
      const key = [...path, node.alias?.value ?? node.name.value];
      const include = node.directives?.find((directive) => directive.name.value === 'include')?.arguments?.[0]?.value;
      if (include?.kind === Kind.VARIABLE && GRANT_VARIABLE.test(include.name.value)) {
        const variable = include.name.value;
        sections.push({ path: key.join('.'), toolset: toolsetOf(variable, where), variable });
      }
      if (node.selectionSet) walk(node.selectionSet, key);
    }
  };
  walk(operation.selectionSet, []);
  for (const variable of (operation.variableDefinitions ?? []).filter(isGrantVariable)) {
    const name = variable.variable.name.value;
    const { type, defaultValue } = variable;
    const declared =
      type.kind === Kind.NAMED_TYPE &&
      type.name.value === 'Boolean' &&
      defaultValue?.kind === Kind.BOOLEAN &&
      defaultValue.value;
    if (!declared)
      throw new Error(`${where}: declare $${name}: Boolean = true (the web app's pages read every section)`);
    if (!sections.some((section) => section.variable === name)) {
      throw new Error(`${where}: $${name} marks no section with @include(if: $${name})`);
    }
  }
  return sections;
}

/** The grant variables of one call: true for the sections the consent covers. */
export const grantVariables = (sections: readonly GrantedSection[], consent: Consent): Record<string, boolean> =>
  Object.fromEntries(sections.map((section) => [section.variable, consent.toolsets.has(section.toolset)]));

/** Each section left out of a call's answer, with the toolset it needs; null when none was. */
export function withheldSections(
  sections: readonly GrantedSection[],
  consent: Consent,
): Record<string, Toolset> | null {
  const withheld = sections.filter((section) => !consent.toolsets.has(section.toolset));
  return withheld.length ? Object.fromEntries(withheld.map((section) => [section.path, section.toolset])) : null;
}
