import type { PromptSyntaxError } from '../errors/index.js';
import { didYouMean } from '../errors/index.js';
import { jsxToIr, syntaxError, type IrElement, type IrNode } from './template-ir.js';
import { someTag } from './find-tags.js';
import { ATTACHMENT_TAGS, BUILT_IN_TAGS, FIELD_TAGS, fieldTagsFor, isPassThrough, knownTags, type Template } from './template.js';
import type { PromptKind } from './types.js';

/** Role tags and the image/speech prompt tags: each makes one field of the render output. */
const isRole = (name: string): boolean => FIELD_TAGS.includes(name);
const isAttachment = (name: string): boolean => (ATTACHMENT_TAGS as readonly string[]).includes(name);

/**
 * Checks the tag structure once at load, so mistakes show up before any row is rendered:
 * unknown tags, misplaced roles and attachments, broken If chains, malformed ForEach.
 */
export function validateBody(template: Template, isPrompt: boolean, kind: PromptKind = 'text'): PromptSyntaxError[] {
  const errors: PromptSyntaxError[] = [];
  let seenMessage: string | undefined;
  // Consecutive nodes outside role tags are walked together so an <If> and the <Else> that
  // follows it at the top level (a component's body) are seen as one chain.
  let loose: IrNode[] = [];
  const flushLoose = (): void => {
    if (loose.length > 0) walk(template, loose, undefined, isPrompt, kind, errors);
    loose = [];
  };
  for (const node of template.nodes) {
    if (node.kind === 'element' && isRole(node.name) && isPrompt) {
      flushLoose();
      checkElement(template, node, undefined, undefined, isPrompt, kind, errors);
      if (node.name === 'System' && seenMessage !== undefined && (kind === 'text' || kind === 'object')) {
        errors.push(syntaxError(template, node.start, 'PROMPT_SYSTEM_NOT_FIRST', `<System> must be the first message, but it comes after a <${seenMessage}>`));
      }
      seenMessage ??= node.name;
      walk(template, node.children, node.name, isPrompt, kind, errors);
    } else {
      loose.push(node);
    }
  }
  flushLoose();
  return errors;
}

function walk(template: Template, nodes: readonly IrNode[], role: string | undefined, isPrompt: boolean, kind: PromptKind, errors: PromptSyntaxError[]): void {
  let previous: IrElement | undefined;
  for (const node of nodes) {
    if (node.kind === 'expression') {
      previous = undefined;
      continue;
    }
    checkElement(template, node, previous, role, isPrompt, kind, errors);
    // A role tag's content is walked with the role set, so tags nested in it are caught.
    const inner = isRole(node.name) ? node.name : role;
    for (const attribute of node.attributes) {
      if (typeof attribute.value === 'object' && attribute.value.expression) {
        const expression = attribute.value.expression;
        if (expression.type === 'JSXElement' || expression.type === 'JSXFragment') walk(template, [jsxToIr(template, expression)], inner, isPrompt, kind, errors);
      }
    }
    walk(template, node.children, inner, isPrompt, kind, errors);
    if (node.name === 'ForEach') {
      const fn = node.children.find((c) => c.kind === 'expression' && c.expression !== undefined);
      const body = fn?.kind === 'expression' && fn.expression?.type === 'ArrowFunctionExpression' ? fn.expression.body : undefined;
      if (body?.type === 'JSXFragment' || body?.type === 'JSXElement') walk(template, [jsxToIr(template, body)], inner, isPrompt, kind, errors);
    }
    previous = node;
  }
}

function checkElement(template: Template, node: IrElement, previous: IrElement | undefined, role: string | undefined, isPrompt: boolean, kind: PromptKind, errors: PromptSyntaxError[]): void {
  const name = node.name;
  if (isPassThrough(name)) return;
  const attribute = (key: string) => node.attributes.find((a) => a.name === key);
  if (isRole(name)) {
    const allowed = fieldTagsFor(kind);
    if (role !== undefined) {
      errors.push(syntaxError(template, node.start, 'PROMPT_NESTED_ROLE', `<${name}> cannot be inside <${role}>`, 'close the first tag before opening the next'));
    } else if (!allowed.includes(name)) {
      errors.push(syntaxError(template, node.start, 'PROMPT_TAG_NOT_FOR_KIND', `<${name}> is not used in ${kind} prompts`, `use ${allowed.map((t) => `<${t}>`).join(', ')}`));
    }
  } else if (isAttachment(name)) {
    if (isPrompt && role !== 'User') {
      errors.push(syntaxError(template, node.start, 'PROMPT_ATTACHMENT_OUTSIDE_USER', `<${name}> is only allowed inside <User>${role ? `, not <${role}>` : ''}`));
    }
  } else if (name === 'If' || name === 'ElseIf') {
    if (!attribute('condition')) errors.push(syntaxError(template, node.start, 'PROMPT_MISSING_ATTRIBUTE', `<${name}> needs a condition={…} attribute`));
  } else if (name === 'ForEach') {
    if (!attribute('arr')) errors.push(syntaxError(template, node.start, 'PROMPT_MISSING_ATTRIBUTE', '<ForEach> needs an arr={…} attribute'));
    const fn = node.children.find((c) => c.kind === 'expression' && c.expression !== undefined);
    const expression = fn?.kind === 'expression' ? fn.expression : undefined;
    if (expression?.type !== 'ArrowFunctionExpression' || (expression.body.type !== 'JSXFragment' && expression.body.type !== 'JSXElement') || expression.params.length > 2 || expression.params.some((p) => p.type !== 'Identifier')) {
      errors.push(syntaxError(template, node.start, 'PROMPT_FOREACH_CHILD', '<ForEach> needs one child function returning JSX', 'write {(item, index) => <>…</>}'));
    }
  } else if (template.components.has(name)) {
    const component = template.components.get(name) as Template;
    if (role !== undefined && someTag(component, component.nodes, isRole)) {
      errors.push(syntaxError(template, node.start, 'PROMPT_NESTED_ROLE', `<${name}> holds role tags, so it cannot be inside <${role}>`, 'use the component outside role tags'));
    }
  } else if (!BUILT_IN_TAGS.includes(name)) {
    const known = knownTags(template, kind);
    const guess = didYouMean(name, known);
    errors.push(syntaxError(template, node.start, 'PROMPT_UNKNOWN_TAG', `unknown tag <${name}>`, `${guess ? `${guess} ` : ''}known tags: ${known.join(', ')}`));
  }
  if ((name === 'ElseIf' || name === 'Else') && !followsBranch(template, node, previous)) {
    errors.push(syntaxError(template, node.start, 'PROMPT_ORPHAN_BRANCH', `<${name}> must directly follow an <If> or <ElseIf>`));
  }
}

function followsBranch(template: Template, node: IrElement, previous: IrElement | undefined): boolean {
  if (!previous || (previous.name !== 'If' && previous.name !== 'ElseIf')) return false;
  return /^\s*$/.test(template.source.slice(previous.end, node.start));
}
