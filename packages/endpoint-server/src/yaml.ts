/**
 * YAML 1.1 parsing as game-server configs are read (SnakeYAML in Bukkit): `yes`/`on` are booleans, maps keep
 * their order, duplicate keys are allowed (the last value wins).
 * @packageDocumentation
 */
import { parseDocument, type ScalarTag, type Tags } from 'yaml';

/** A YAML file that does not parse, with the position of the first problem (1-based). */
export class YamlSyntaxError extends Error {
  override readonly name = 'YamlSyntaxError';
  /** Line of the first problem, 1-based. */
  readonly line: number;
  /** Column of the first problem, 1-based. */
  readonly column: number;

  constructor(message: string, line: number, column: number) {
    super(message);
    this.line = line;
    this.column = column;
  }
}

const BOOL_TAG = 'tag:yaml.org,2002:bool';
const TIMESTAMP_TAG = 'tag:yaml.org,2002:timestamp';
// SnakeYAML's booleans: unlike the `yaml` package's YAML 1.1 schema, a lone y/n stays a string.
const TRUE_WORDS = /^(?:yes|Yes|YES|true|True|TRUE|on|On|ON)$/;
const FALSE_WORDS = /^(?:no|No|NO|false|False|FALSE|off|Off|OFF)$/;

function adjustTags(tags: Tags): Tags {
  const out: Tags = [];
  for (const tag of tags) {
    if (typeof tag !== 'object') {
      out.push(tag);
      continue;
    }
    // Dates stay text, so a value like 2024-01-01 renders as written.
    if (tag.tag === TIMESTAMP_TAG) continue;
    if (tag.tag === BOOL_TAG && 'test' in tag && tag.test instanceof RegExp) {
      const scalar = tag as ScalarTag;
      const isTrue = scalar.test?.test('true') === true;
      out.push({ ...scalar, test: isTrue ? TRUE_WORDS : FALSE_WORDS });
      continue;
    }
    out.push(tag);
  }
  return out;
}

/**
 * Parses YAML 1.1 text into plain values: `Map` for mappings (keys keep their YAML type), arrays for
 * sequences, `bigint` for integers, `number` for floats. Throws {@link YamlSyntaxError} on the first error.
 */
export function parseYaml11(text: string): unknown {
  const doc = parseDocument(text, {
    version: '1.1',
    uniqueKeys: false,
    intAsBigInt: true,
    prettyErrors: true,
    customTags: adjustTags,
  });
  const first = doc.errors[0];
  if (first) {
    const pos = first.linePos?.[0];
    const line = pos?.line ?? 1;
    const column = pos?.col ?? 1;
    const summary = first.message.split('\n')[0] ?? first.message;
    throw new YamlSyntaxError(summary, line, column);
  }
  return doc.toJS({ mapAsMap: true, maxAliasCount: 1000 });
}
