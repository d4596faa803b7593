// Finds the references in code and docs that lead nowhere: sections of notes that are not in the repository (a
// section sign after SPEC, PITFALLS or ARCHITECTURE; those notes' file names), relative markdown links to a file that
// does not exist, and mentions of a docs/ markdown file (with or without an anchor) whose file or heading does not
// exist. Pure: it reads the files it is
// given; the spec next to it gives it the repository's.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** One reference that does not resolve, where it is and why. */
export interface Dangling {
  file: string;
  line: number;
  text: string;
  why: string;
}

/** The text files a reference can be in; lockfiles and generated files are not read. */
const SCANNED = /\.(ts|tsx|js|jsx|mjs|cjs|md|json|ya?ml|go|sh|css|html)$|(^|\/)Dockerfile$/;
const SKIPPED = /(^|\/)(node_modules|dist|coverage|\.data|\.tools)\/|(^|\/)package-lock\.json$/;

/**
 * The repository's tracked and new (not ignored) text files, relative to `root`; without git (an exported tree), every
 * file below `root` but the skipped folders.
 */
export function repositoryFiles(root: string): string[] {
  let listed: string[];
  try {
    listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .toString('utf8')
      .split('\0');
  } catch {
    listed = walk(root, '');
  }
  return [...new Set(listed)].filter(
    (f) => f && SCANNED.test(f) && !SKIPPED.test(f) && !f.startsWith('.git/') && existsSync(path.join(root, f)),
  );
}

function walk(root: string, dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return entry.name === '.git' || SKIPPED.test(`${file}/`) ? [] : walk(root, file);
    return entry.isFile() ? [file] : [];
  });
}

/**
 * Notes kept outside the repository, cited by section or by name. Matched across a line break and a comment's
 * leading `*` or `//`, so a citation wrapped onto the next line is found too.
 */
const NOTE_SECTION = /\b(SPEC|PITFALLS|ARCHITECTURE)(\.md)?(\s|\*|\/\/)*(§|\d+\.\d+\b)/g;
const NOTE_FILE = /(?<![\w./-])(SPEC|PITFALLS|ARCHITECTURE|API|STYLE)\.md\b/g;
/**
 * A markdown file of the repository named by its path from the root (`docs/….md`, `services/<name>/README.md`, …),
 * with or without an anchor, anywhere (a comment, a string, a doc); a section may follow by name in quotes
 * (`docs/performance.md, "Admin lists"`), which must begin one of that file's headings.
 */
const REPO_MD_MENTION =
  /(?<![\w./-])((?:docs|services|packages|gateway|web|scripts|e2e|tools|deploy|k8s)\/[\w./-]*?\.md)(#[\w-]+)?(?:\)?,?\s?\(?"([^"]{2,120})")?/g;
/** A section's name as quoted, wrapped onto the next line of a comment or not: one line, no comment markers. */
const section = (quoted: string) => quoted.replace(/\s*\n\s*(?:\*(?!\/)|\/\/)?\s*/g, ' ').trim();

/** `[text](target)` and `[label]: target` in markdown. */
const MD_INLINE_LINK = /\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const MD_REF_LINK = /^\s{0,3}\[[^\]]+\]:\s+<?(\S+?)>?(\s|$)/;

/**
 * GitHub's anchor for a heading: the rendered text (inline code, links and emphasis reduced to their text),
 * lower-cased, everything but letters, digits, spaces, `-` and `_` dropped, spaces turned into `-`.
 */
export function slug(heading: string): string {
  return plain(heading)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/ /g, '-');
}

/** A heading's text as rendered: links reduced to their text, tags dropped (inline code keeps its text). */
function plain(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim();
}

/** Every anchor a markdown file offers: its headings' slugs (repeats numbered as GitHub does) and explicit ids. */
export function anchorsOf(markdown: string): Set<string> {
  return outline(markdown).anchors;
}

/** A markdown file's headings as text (inline markup dropped) and the anchors they and explicit ids give. */
function outline(markdown: string): { anchors: Set<string>; headings: string[] } {
  const anchors = new Set<string>();
  const headings: string[] = [];
  const seen = new Map<string, number>();
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const f = /^\s{0,3}(```+|~~~+)/.exec(line);
    if (f) {
      if (fence === null) fence = f[1][0];
      else if (f[1][0] === fence) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const h = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) {
      headings.push(plain(h[1]));
      const base = slug(h[1]);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const m of line.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(m[1]);
  }
  return { anchors, headings };
}

/** What the scan needs of the tree: a file's text, and whether a path exists. */
export interface Tree {
  read(file: string): string;
  exists(file: string): boolean;
}

export function diskTree(root: string): Tree {
  return {
    read: (file) => readFileSync(path.join(root, file), 'utf8'),
    exists: (file) => {
      try {
        statSync(path.join(root, file));
        return true;
      } catch {
        return false;
      }
    },
  };
}

/** Lines of a markdown file that are prose (not inside a fenced code block), with inline code spans blanked. */
function proseLines(markdown: string): string[] {
  let fence: string | null = null;
  return markdown.split('\n').map((line) => {
    const f = /^\s{0,3}(```+|~~~+)/.exec(line);
    if (f) {
      if (fence === null) fence = f[1][0];
      else if (f[1][0] === fence) fence = null;
      return '';
    }
    if (fence !== null) return '';
    return line.replace(/(`+)[^`]*?\1/g, (s) => ' '.repeat(s.length));
  });
}

function lineAt(text: string, index: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** The references among `files` (paths relative to the tree's root, `/`-separated) that do not resolve. */
export function findDangling(files: readonly string[], tree: Tree): Dangling[] {
  const found: Dangling[] = [];
  const outlines = new Map<string, ReturnType<typeof outline>>();
  const outlineOf = (file: string) => {
    let o = outlines.get(file);
    if (!o) outlines.set(file, (o = outline(tree.read(file))));
    return o;
  };
  const anchors = (file: string): Set<string> => outlineOf(file).anchors;
  /** Whether a section named in quotes begins one of the file's headings (case and inline code aside). */
  const hasSection = (file: string, name: string): boolean => {
    const wanted = name.replace(/`/g, '').toLowerCase();
    return outlineOf(file).headings.some((h) => h.replace(/`/g, '').toLowerCase().startsWith(wanted));
  };
  /** Checks `target` (a repository path, maybe with `#anchor`); undefined when it resolves, else why not. */
  const resolve = (target: string, anchor: string | undefined): string | undefined => {
    const clean = path.posix.normalize(target).replace(/(.)\/+$/, '$1');
    if (clean.startsWith('..')) return `${target} is outside the repository`;
    if (!tree.exists(clean)) return `${clean} does not exist`;
    if (anchor && clean.endsWith('.md') && !anchors(clean).has(anchor)) return `${clean} has no heading #${anchor}`;
    return undefined;
  };

  for (const file of files) {
    const text = tree.read(file);
    if (!/§|\.md|\]\(|\]:|PITFALLS|SPEC|ARCHITECTURE/.test(text)) continue;
    const add = (index: number, match: string, why: string) =>
      found.push({ file, line: lineAt(text, index), text: match.replace(/\s+/g, ' '), why });

    const cited: Array<[number, number]> = [];
    for (const m of text.matchAll(NOTE_SECTION)) {
      cited.push([m.index, m.index + m[0].length]);
      add(m.index, m[0], 'a section of notes outside the repository: link a docs/ heading or state the rule');
    }
    for (const m of text.matchAll(NOTE_FILE)) {
      if (cited.some(([from, to]) => m.index >= from && m.index < to)) continue;
      add(m.index, m[0], 'notes outside the repository: link a docs/ file or state the rule');
    }
    for (const m of text.matchAll(REPO_MD_MENTION)) {
      const why =
        resolve(m[1], m[2]?.slice(1)) ??
        (m[3] !== undefined && !hasSection(path.posix.normalize(m[1]), section(m[3]))
          ? `${m[1]} has no heading beginning "${section(m[3])}"`
          : undefined);
      if (why) add(m.index, m[0], why);
    }

    if (!file.endsWith('.md')) continue;
    const dir = path.posix.dirname(file);
    proseLines(text).forEach((line, i) => {
      const targets = [...line.matchAll(MD_INLINE_LINK)].map((m) => m[1]);
      const ref = MD_REF_LINK.exec(line);
      if (ref) targets.push(ref[1]);
      for (const raw of targets) {
        if (/^([a-z][a-z0-9+.-]*:|\/\/)/i.test(raw)) continue; // http:, mailto:, …
        if (raw.startsWith('/')) continue; // a route of the shop (/api/docs), not a file
        const [p, anchor] = raw.split('#', 2) as [string, string | undefined];
        const target = p === '' ? file : path.posix.join(dir, decodeURIComponent(p));
        const why = resolve(target, anchor);
        if (why) found.push({ file, line: i + 1, text: raw, why });
      }
    });
  }
  return found.sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1));
}
