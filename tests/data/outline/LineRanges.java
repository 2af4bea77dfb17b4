package dev.sutra.outline;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The model of `sutra read` in Java, for the outline tests: a class with nested types, an
 * interface, an enum, a record, overloaded methods, constructors and annotations.
 */
public final class LineRanges {
    public static final int MAX_RANGES = 64;

    /** One-based, inclusive. */
    public record LineRange(int first, int last) {
        public LineRange {
            if (first < 1 || last < first) {
                throw new IllegalArgumentException("range " + first + "-" + last + " is backwards");
            }
        }

        public int lines() {
            return last - first + 1;
        }
    }

    public interface Slicer {
        String slice(LineRange range);

        int lineCount();

        default String slice(int first, int last) {
            return slice(new LineRange(first, last));
        }
    }

    public enum Outcome {
        OK("ok"),
        PAST_END("past the end");

        private final String label;

        Outcome(String label) {
            this.label = label;
        }

        @Override
        public String toString() {
            return label;
        }
    }

    /** Lines addressed by byte offsets. */
    public static class Index implements Slicer {
        private final String text;
        private final List<Integer> starts = new ArrayList<>();

        public Index(String text) {
            this.text = Objects.requireNonNull(text);
            starts.add(0);
            for (int i = 0; i < text.length(); i++) {
                if (text.charAt(i) == '\n' && i + 1 < text.length()) {
                    starts.add(i + 1);
                }
            }
        }

        @Override
        public int lineCount() {
            return text.isEmpty() ? 0 : starts.size();
        }

        private int endOf(int line) {
            return line < starts.size() ? starts.get(line) : text.length();
        }

        @Override
        public String slice(LineRange range) {
            if (range.last() > lineCount()) {
                throw new IndexOutOfBoundsException(
                        "line " + range.last() + " is past the end (" + lineCount() + " lines)");
            }
            return text.substring(starts.get(range.first() - 1), endOf(range.last()));
        }
    }

    private LineRanges() {}

    public static List<LineRange> parse(String spec) {
        List<LineRange> out = new ArrayList<>();
        for (String part : spec.split(",")) {
            out.add(parsePart(part));
            if (out.size() == MAX_RANGES) {
                break;
            }
        }
        return out;
    }

    static LineRange parsePart(String part) {
        int dash = part.indexOf('-');
        if (dash < 0) {
            int n = Integer.parseInt(part.trim());
            return new LineRange(n, n);
        }
        return new LineRange(Integer.parseInt(part.substring(0, dash).trim()),
                Integer.parseInt(part.substring(dash + 1).trim()));
    }

    public static String concat(Slicer slicer, List<LineRange> ranges) {
        StringBuilder b = new StringBuilder();
        for (LineRange r : ranges) {
            b.append(slicer.slice(r));
        }
        return b.toString();
    }

    public static String concat(Slicer slicer, String spec) {
        return concat(slicer, parse(spec));
    }
}
