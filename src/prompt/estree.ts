/**
 * The ESTree shapes (as produced by acorn inside the MDX parser) that the interpreter reads.
 * Declared here rather than imported so the interpreter depends on no parser's types; any
 * node type not listed is rejected at runtime.
 */
interface Base {
  type: string;
  start: number;
  end: number;
}

export interface EsIdentifier extends Base { type: 'Identifier'; name: string }
export interface EsLiteral extends Base { type: 'Literal'; value: unknown; regex?: unknown; bigint?: string }
export interface EsMember extends Base { type: 'MemberExpression'; object: EsNode; property: EsNode; computed: boolean; optional: boolean }
export interface EsChain extends Base { type: 'ChainExpression'; expression: EsNode }
export interface EsBinary extends Base { type: 'BinaryExpression'; operator: string; left: EsNode; right: EsNode }
export interface EsLogical extends Base { type: 'LogicalExpression'; operator: string; left: EsNode; right: EsNode }
export interface EsUnary extends Base { type: 'UnaryExpression'; operator: string; argument: EsNode }
export interface EsConditional extends Base { type: 'ConditionalExpression'; test: EsNode; consequent: EsNode; alternate: EsNode }
export interface EsTemplateElement extends Base { type: 'TemplateElement'; value: { cooked: string | null; raw: string } }
export interface EsTemplate extends Base { type: 'TemplateLiteral'; quasis: EsTemplateElement[]; expressions: EsNode[] }
export interface EsArray extends Base { type: 'ArrayExpression'; elements: (EsNode | null)[] }
export interface EsProperty extends Base { type: 'Property'; key: EsNode; value: EsNode; computed: boolean; kind: string; method: boolean }
export interface EsObject extends Base { type: 'ObjectExpression'; properties: EsNode[] }
export interface EsCall extends Base { type: 'CallExpression'; callee: EsNode; arguments: EsNode[]; optional: boolean }
export interface EsArrow extends Base { type: 'ArrowFunctionExpression'; params: EsNode[]; body: EsNode; async: boolean }
export interface EsSpread extends Base { type: 'SpreadElement'; argument: EsNode }

export interface EsJsxIdentifier extends Base { type: 'JSXIdentifier'; name: string }
export interface EsJsxNamespacedName extends Base { type: 'JSXNamespacedName'; namespace: EsJsxIdentifier; name: EsJsxIdentifier }
export interface EsJsxMemberExpression extends Base { type: 'JSXMemberExpression'; object: EsJsxName; property: EsJsxIdentifier }
export type EsJsxName = EsJsxIdentifier | EsJsxNamespacedName | EsJsxMemberExpression;
export interface EsJsxEmpty extends Base { type: 'JSXEmptyExpression' }
export interface EsJsxContainer extends Base { type: 'JSXExpressionContainer'; expression: EsNode | EsJsxEmpty }
export interface EsJsxAttribute extends Base { type: 'JSXAttribute'; name: EsJsxIdentifier | EsJsxNamespacedName; value: EsLiteral | EsJsxContainer | EsJsxElement | EsJsxFragment | null }
export interface EsJsxSpreadAttribute extends Base { type: 'JSXSpreadAttribute'; argument: EsNode }
export interface EsJsxOpening extends Base { type: 'JSXOpeningElement'; name: EsJsxName; attributes: (EsJsxAttribute | EsJsxSpreadAttribute)[]; selfClosing: boolean }
export interface EsJsxClosing extends Base { type: 'JSXClosingElement' | 'JSXClosingFragment' }
export interface EsJsxText extends Base { type: 'JSXText'; value: string }
export type EsJsxChild = EsJsxText | EsJsxContainer | EsJsxElement | EsJsxFragment | (Base & { type: 'JSXSpreadChild' });
export interface EsJsxElement extends Base { type: 'JSXElement'; openingElement: EsJsxOpening; closingElement: EsJsxClosing | null; children: EsJsxChild[] }
export interface EsJsxFragment extends Base { type: 'JSXFragment'; openingFragment: Base; closingFragment: EsJsxClosing; children: EsJsxChild[] }

export type EsNode =
  | EsIdentifier
  | EsLiteral
  | EsMember
  | EsChain
  | EsBinary
  | EsLogical
  | EsUnary
  | EsConditional
  | EsTemplate
  | EsArray
  | EsObject
  | EsProperty
  | EsCall
  | EsArrow
  | EsSpread
  | EsJsxElement
  | EsJsxFragment;

/** The Program acorn returns for one `{…}`: empty for a comment, else one expression statement. */
export interface EsProgram extends Base {
  type: 'Program';
  body: Array<Base & { type: string; expression?: EsNode }>;
}

/** Import/export statements at the top of a body (mdxjsEsm). */
export interface EsImportSpecifier extends Base {
  type: 'ImportDefaultSpecifier' | 'ImportSpecifier' | 'ImportNamespaceSpecifier';
  local: EsIdentifier;
}
export interface EsModuleStatement extends Base {
  source?: EsLiteral;
  specifiers?: EsImportSpecifier[];
}
