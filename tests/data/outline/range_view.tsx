// The model of `sutra read` as a React view in TSX, for the outline tests: components,
// hooks, interfaces, a type alias, an enum and a class.
import { useMemo, useState } from "react";

export interface LineRange {
  first: number;
  last: number;
}

export type Ranges = readonly LineRange[];

export enum Outcome {
  Ok = "ok",
  PastEnd = "past the end",
}

export function parseRanges(spec: string): Ranges {
  return spec.split(",").map((part) => {
    const [a, b = a] = part.split("-");
    const first = Number(a);
    const last = Number(b);
    if (!Number.isInteger(first) || first < 1 || last < first) {
      throw new RangeError(`line range '${part}' is not valid`);
    }
    return { first, last };
  });
}

export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(private readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      if (text[i] === "\n" && i + 1 < text.length) this.starts.push(i + 1);
    }
  }

  get lineCount(): number {
    return this.text === "" ? 0 : this.starts.length;
  }

  slice(range: LineRange): string {
    if (range.last > this.lineCount) {
      throw new RangeError(`line ${range.last} is past the end (${this.lineCount} lines)`);
    }
    const end = range.last < this.starts.length ? this.starts[range.last] : this.text.length;
    return this.text.slice(this.starts[range.first - 1], end);
  }
}

interface ViewProps {
  text: string;
  initial?: string;
}

export const RangeView = ({ text, initial = "1-10" }: ViewProps) => {
  const [spec, setSpec] = useState(initial);
  const index = useMemo(() => new LineIndex(text), [text]);
  let body: string;
  try {
    body = parseRanges(spec).map((r) => index.slice(r)).join("");
  } catch (e) {
    body = String(e);
  }
  return (
    <section className="range-view">
      <input value={spec} onChange={(e) => setSpec(e.target.value)} />
      <pre>{body}</pre>
      <footer>{index.lineCount} lines</footer>
    </section>
  );
};

export default function App(props: ViewProps) {
  return <RangeView {...props} />;
}
