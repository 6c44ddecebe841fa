/**
 * Request templates for the RAG target. In a JSON body template a string that is exactly `{{name}}`
 * becomes the variable's value with its type (a list stays a list); `{{name}}` inside a longer string is
 * replaced by its text. Header values may read the environment as `${NAME}`, so tokens stay out of files.
 */

const WHOLE = /^\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$/;
const INLINE = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
const ENV_REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export type TemplateVars = Record<string, unknown>;

export class TemplateError extends Error {}

export function renderBody(template: unknown, vars: TemplateVars): unknown {
  if (typeof template === 'string') {
    const whole = WHOLE.exec(template);
    if (whole) return lookup(vars, whole[1] as string);
    return template.replace(INLINE, (_, name: string) => asText(lookup(vars, name)));
  }
  if (Array.isArray(template)) return template.map((t) => renderBody(t, vars));
  if (template && typeof template === 'object') {
    return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, renderBody(v, vars)]));
  }
  return template;
}

/** Interpolates `{{name}}` into a URL, percent-encoding each value. */
export function renderUrl(template: string, vars: TemplateVars): string {
  return template.replace(INLINE, (_, name: string) => encodeURIComponent(asText(lookup(vars, name))));
}

/** Variables a template uses: checked before the run so a typo fails fast (exit 2), not per item. */
export function templateVariables(template: unknown): string[] {
  const found = new Set<string>();
  const visit = (t: unknown) => {
    if (typeof t === 'string') for (const m of t.matchAll(INLINE)) found.add(m[1] as string);
    else if (Array.isArray(t)) t.forEach(visit);
    else if (t && typeof t === 'object') Object.values(t).forEach(visit);
  };
  visit(template);
  return [...found].sort();
}

export function expandEnv(value: string, env: NodeJS.ProcessEnv, what: string): string {
  return value.replace(ENV_REF, (_, name: string) => {
    const v = env[name];
    if (v === undefined) throw new TemplateError(`${what}: environment variable ${name} is not set`);
    return v;
  });
}

function lookup(vars: TemplateVars, name: string): unknown {
  if (!(name in vars))
    throw new TemplateError(`unknown template variable {{${name}}}; known: ${Object.keys(vars).sort().join(', ')}`);
  return vars[name];
}

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join('\n\n');
  return JSON.stringify(value ?? null);
}
