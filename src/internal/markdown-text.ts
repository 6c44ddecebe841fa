import { withoutControls } from './terminal-text.js';

/**
 * Text from outside (dataset items, judge reasons, annotators' comments) laid into a Markdown report: a renderer
 * would run its HTML (`<script>`, `<img onerror>`) and hide a placeholder such as `<PHONE_1>` as an unknown tag.
 * `&`, `<` and `>` become entities, control characters go (`withoutControls`).
 */
export function markdownText(text: string): string {
  return withoutControls(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** `markdownText` for a table cell: on one line, `|` escaped. */
export function markdownCell(text: string): string {
  return markdownText(text).replace(/\|/g, '\\|').replace(/\s+/g, ' ');
}
