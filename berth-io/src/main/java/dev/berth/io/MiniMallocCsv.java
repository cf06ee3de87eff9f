package dev.berth.io;

import dev.berth.artifact.Plan;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.failure.BerthException;
import dev.berth.failure.Failure;
import dev.berth.failure.FixedOverlap;
import dev.berth.failure.InputDetail;
import dev.berth.failure.Require;
import dev.berth.io.model.FileErrors;
import dev.berth.target.AddressFormat;
import dev.berth.target.EndConvention;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.FixedRegion;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Workload;

import java.io.BufferedWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * MiniMalloc's CSV problem format, read strictly and written back with offsets.
 *
 * <p><b>Columns</b> (header on line 1, in any order, each at most once):
 * <ul>
 *   <li>{@code id} (aliases {@code buffer}, {@code buffer_id}): the buffer's name, unique, not empty;</li>
 *   <li>{@code lower} (aliases {@code begin}, {@code start}): first step;</li>
 *   <li>{@code upper}: the step after the last one: lifetimes are half-open {@code [lower, upper)},
 *       so Berth's inclusive lifetime is {@code [lower, upper - 1]}; or, instead, {@code end}:
 *       the last step itself (MiniMalloc's older format, where {@code end = upper - 1});</li>
 *   <li>{@code size}: bytes;</li>
 *   <li>{@code alignment} (optional, default 1): a positive whole number, any value;</li>
 *   <li>{@code offset} (optional): a fixed offset chosen by an earlier stage, as in MiniMalloc
 *       (a buffer with an offset is not moved): the row becomes a fixed region of exactly
 *       {@code size} bytes at that offset, which must be a multiple of its alignment; an empty
 *       cell means "not fixed";</li>
 *   <li>{@code hint} (optional): MiniMalloc's solver hint, checked to be a whole number (-1 for
 *       none) and otherwise not used;</li>
 *   <li>{@code gaps} (optional): MiniMalloc's inactive intervals. Berth does not model them and
 *       treats the buffer as live over its whole lifetime, which is safe (a placement valid
 *       without gaps is valid with them) but may need more memory. Non-empty gaps are named in
 *       {@link Document#notes()}.</li>
 * </ul>
 * Any other column, a missing required column, a repeated column, a row with a different number
 * of fields, a value that is not a plain decimal whole number (no sign, fraction or exponent),
 * a value above 2^63-1, an empty lifetime ({@code upper <= lower}), a step above 2^31-1, a
 * duplicate id or a blank line before the last row is {@code invalid-input} naming the line and
 * column. Fields are split at every comma (no quoting, as in MiniMalloc); spaces around a field
 * and a trailing carriage return are ignored.
 *
 * <p><b>Output</b> ({@link #write}): the input's columns and cells as they were, plus an
 * {@code offset} column holding each buffer's planned offset (an existing {@code offset} column
 * is filled in place), so MiniMalloc's own tools read it back.
 */
public final class MiniMallocCsv {
    /** The name of the single space of a CSV workload. */
    public static final String SPACE = "mem";

    private static final Map<String, String> ALIASES = Map.of(
            "id", "id", "buffer", "id", "buffer_id", "id",
            "lower", "lower", "begin", "lower", "start", "lower",
            "upper", "upper", "end", "end",
            "size", "size", "alignment", "alignment");
    private static final Set<String> OTHER = Set.of("offset", "hint", "gaps");

    private MiniMallocCsv() {
    }

    /** One row: the buffer it describes and its cells as written. */
    public record Row(int line, String id, Lifetime live, long size, long alignment, OptionalLong offset,
                      List<String> cells) {
        public Row {
            cells = List.copyOf(cells);
        }
    }

    /**
     * A read file: its header cells, its rows, the workload name (the file name without
     * {@code .csv}), and notes on what Berth read differently from MiniMalloc (ignored gaps).
     */
    public record Document(String name, List<String> header, List<Row> rows, List<String> notes) {
        public Document {
            header = List.copyOf(header);
            rows = List.copyOf(rows);
            notes = List.copyOf(notes);
        }

        /**
         * The buffers to place (rows without an offset) and fixed regions (rows with one), in
         * space {@link #SPACE} of {@code target} (made by {@link MiniMallocCsv#target}).
         */
        public Workload workload(Target target) {
            Space space = target.space(SPACE, "target");
            List<BufferSpec> buffers = new ArrayList<>();
            List<FixedRegion> fixed = new ArrayList<>();
            List<Row> fixedRows = new ArrayList<>();
            for (Row r : rows) {
                if (r.offset().isPresent()) {
                    fixed.add(new FixedRegion(r.id(), space, r.offset().getAsLong(), r.size(), r.live()));
                    fixedRows.add(r);
                } else {
                    buffers.add(new BufferSpec(r.id(), r.size(), space, r.alignment(), r.live(), Optional.empty()));
                }
            }
            try {
                return new Workload(name, buffers, fixed);
            } catch (BerthException e) {
                throw byLine(e, fixedRows);
            }
        }

        /**
         * The workload names two fixed regions that overlap by their indexes ({@link FixedOverlap}:
         * the later, {@code fixed[k]}, and the one it overlaps); the user's file has rows, so the
         * failure names the later row's line, and the earlier row's.
         */
        private BerthException byLine(BerthException e, List<Row> fixedRows) {
            if (!(e.failure() instanceof Failure.InvalidInput in) || !(in.detail() instanceof InputDetail.Overlap o)) {
                return e;
            }
            Row later = fixedRows.get(o.regions().region());
            Row earlier = fixedRows.get(o.regions().overlaps());
            return BerthException.invalid(name + ":" + later.line(), name + ": line " + later.line() + ": two rows with "
                    + "an offset overlap: " + extent(later) + " overlaps " + extent(earlier) + " on line "
                    + earlier.line() + " during common steps");
        }

        /** {@code id [offset, +size)} of a row with an offset. */
        private static String extent(Row r) {
            return r.id() + " [" + r.offset().getAsLong() + ", +" + r.size() + ")";
        }
    }

    /**
     * The target of a CSV workload: one local space {@link #SPACE} of {@code capacity} bytes,
     * alignment 1, in a format {@code wide} that encodes every offset up to 2^63-1 (exclusive
     * end), so that only the capacity limits the plan.
     */
    public static Target target(long capacity) {
        if (capacity < 0) {
            throw Require.invalid("--capacity", Long.toString(capacity), "must not be negative");
        }
        return withSpace(new Space.Local(SPACE, WIDE, 1, 0, capacity));
    }

    /** The format of a CSV workload's space: every offset up to 2^63-1, exclusive end. */
    private static final AddressFormat WIDE = new AddressFormat("wide", Long.MAX_VALUE, EndConvention.EXCLUSIVE);

    /** The target {@code minimalloc} of the one space {@code space}, in format {@link #WIDE}. */
    private static Target withSpace(Space space) {
        Map<String, AddressFormat> formats = new LinkedHashMap<>();
        formats.put(WIDE.name(), WIDE);
        Map<String, Space> spaces = new LinkedHashMap<>();
        spaces.put(SPACE, space);
        return new Target("minimalloc", formats, spaces, Optional.empty());
    }

    /**
     * The target of a CSV workload planned for its height alone (no {@code --capacity}): one
     * logical space {@link #SPACE}, no capacity, alignment 1, in the format {@code wide} of
     * {@link #target}, so that the plan minimises the high-water mark, as idealloc's instances ask.
     */
    public static Target logicalTarget() {
        return withSpace(new Space.Logical(SPACE, WIDE, 1, 0));
    }

    /**
     * Reads a CSV file line by line (no copy of the whole file in memory); a missing or
     * unreadable file is {@code invalid-input}. A file with an error of any kind is read again
     * whole ({@link #read(byte[], String, String)}), so that the error is the one the whole file
     * gives (bytes that are not UTF-8 anywhere come first).
     */
    public static Document read(Path file) {
        String fileName = file.getFileName() == null ? "" : file.getFileName().toString();
        String name = fileName.toLowerCase(Locale.ROOT).endsWith(".csv")
                ? fileName.substring(0, fileName.length() - 4) : fileName;
        try {
            return stream(file, name);
        } catch (IOException | RuntimeException e) {
            // the file has an error: read whole, it says which one comes first
        }
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw FileErrors.cannotRead(file, file.toString(), e);
        }
        return read(bytes, name, file.toString());
    }

    /** The file read line by line, strictly as UTF-8: any problem is an exception (of any type). */
    static Document stream(Path file, String name) throws IOException {
        try (Reader in = new InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8
                .newDecoder().onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT))) {
            return parse(new StreamedLines(in), name, file.toString());
        }
    }

    /** The lines of a text, split at every {@code \n} (as {@code split("\n", -1)}): null after the last. */
    private interface Lines {
        String next() throws IOException;
    }

    /** The lines of a reader, one at a time. */
    private static final class StreamedLines implements Lines {
        private final Reader in;
        private final char[] buf = new char[1 << 16];
        private final StringBuilder line = new StringBuilder();
        private int pos;
        private int len;
        private boolean done;

        StreamedLines(Reader in) {
            this.in = in;
        }

        @Override
        public String next() throws IOException {
            if (done) {
                return null;
            }
            line.setLength(0);
            while (true) {
                if (pos == len) {
                    len = in.read(buf);
                    pos = 0;
                    if (len < 0) {
                        done = true;
                        return line.toString();
                    }
                }
                int start = pos;
                while (pos < len && buf[pos] != '\n') {
                    pos++;
                }
                line.append(buf, start, pos - start);
                if (pos < len) {
                    pos++;
                    return line.toString();
                }
            }
        }
    }

    /** Reads a CSV file's bytes: bytes that are not UTF-8 are {@code invalid-input}; {@code where} names the source. */
    public static Document read(byte[] bytes, String name, String where) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw Require.invalid(where, "not UTF-8 text");
        }
        return parse(text, name, where);
    }

    /** Parses CSV text; {@code where} names the source in messages. */
    public static Document parse(String text, String name, String where) {
        String[] split = text.split("\n", -1);
        int[] at = {0};
        try {
            return parse(() -> at[0] < split.length ? split[at[0]++] : null, name, where);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The rows of the lines, checked in order; blank lines at the end are ignored, a blank line
     * before a row is an error at its line.
     */
    private static Document parse(Lines lines, String name, String where) throws IOException {
        String first = lines.next();
        if (first.startsWith("\uFEFF")) {
            first = first.substring(1);
        }
        String headerLine = first;
        if (strip(first).isEmpty()) {
            // a blank header: an empty file, unless a line with text follows
            String l;
            do {
                l = lines.next();
            } while (l != null && strip(l).isEmpty());
            if (l == null) {
                throw Require.invalid(where, "empty file; expected a header such as id,lower,upper,size");
            }
        }
        List<String> header = fields(headerLine);
        Map<String, Integer> column = new HashMap<>();
        for (int c = 0; c < header.size(); c++) {
            String h = header.get(c);
            String key = ALIASES.containsKey(h) ? ALIASES.get(h) : OTHER.contains(h) ? h : null;
            if (key == null) {
                throw at(where, 1, c, h, "unknown column '" + h + "' (columns: id, lower, upper or end, size, and "
                        + "optionally alignment, offset, hint, gaps)");
            }
            if ((key.equals("end") && column.containsKey("upper")) || (key.equals("upper") && column.containsKey("end"))) {
                throw at(where, 1, c, h, "columns 'upper' (the first step after the lifetime) and 'end' (its last "
                        + "step) both give the lifetime's end: give one of them");
            }
            if (column.containsKey(key)) {
                throw at(where, 1, c, h, "column '" + h + "' repeats an earlier column" + (key.equals(h) ? ""
                        : " ('" + h + "' is another name of '" + key + "')"));
            }
            column.put(key, c);
        }
        for (String required : List.of("id", "lower", "size")) {
            if (!column.containsKey(required)) {
                throw BerthException.invalid(where + ":1", headerLine, where + ": line 1: the required column '"
                        + required + "' is missing (header: " + String.join(",", header) + ")");
            }
        }
        if (!column.containsKey("upper") && !column.containsKey("end")) {
            throw BerthException.invalid(where + ":1", headerLine, where
                    + ": line 1: the required column 'upper' (or 'end') is missing (header: " + String.join(",", header) + ")");
        }
        List<Row> rows = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        int blank = 0;
        int line = 1;
        for (String text = lines.next(); text != null; text = lines.next()) {
            line++;
            if (strip(text).isEmpty()) {
                // blank: an error only if a row follows
                blank = blank == 0 ? line : blank;
                continue;
            }
            if (blank != 0) {
                throw BerthException.invalid(where + ":" + blank, "", where + ": line " + blank
                        + ": blank line before the last row");
            }
            List<String> cells = fields(text);
            if (cells.size() != header.size()) {
                throw BerthException.invalid(where + ":" + line, text, where + ": line " + line + ": "
                        + cells.size() + " fields, but the header has " + header.size());
            }
            Cells cs = new Cells(where, line, header, cells);
            String id = cells.get(column.get("id"));
            if (id.isEmpty()) {
                throw at(where, line, column.get("id"), header.get(column.get("id")), "the id is empty");
            }
            if (!ids.add(id)) {
                throw at(where, line, column.get("id"), header.get(column.get("id")), "duplicate id '" + id + "'");
            }
            long lower = cs.whole(column.get("lower"));
            long last;
            if (column.containsKey("upper")) {
                int c = column.get("upper");
                long upper = cs.whole(c);
                if (upper <= lower) {
                    throw at(where, line, c, cells.get(c), "the lifetime [" + lower + ", " + upper
                            + ") is empty: upper must be above lower (upper is exclusive)");
                }
                last = upper - 1;
            } else {
                int c = column.get("end");
                last = cs.whole(c);
                if (last < lower) {
                    throw at(where, line, c, cells.get(c), "the lifetime [" + lower + ", " + last
                            + "] is empty: end must be at least lower (end is the last step)");
                }
            }
            if (last > Integer.MAX_VALUE) {
                int c = column.containsKey("upper") ? column.get("upper") : column.get("end");
                throw at(where, line, c, cells.get(c), "step " + last + " is past the largest step 2^31-1");
            }
            long size = cs.whole(column.get("size"));
            long alignment = 1;
            if (column.containsKey("alignment")) {
                int c = column.get("alignment");
                alignment = cs.whole(c);
                if (alignment == 0) {
                    throw at(where, line, c, "0", "alignment must be a positive whole number, got 0");
                }
            }
            OptionalLong offset = OptionalLong.empty();
            if (column.containsKey("offset") && !cells.get(column.get("offset")).isEmpty()) {
                int c = column.get("offset");
                long o = cs.whole(c);
                if (size > Long.MAX_VALUE - o) {
                    throw at(where, line, c, cells.get(c), "offset " + o + " + size " + size
                            + " is past 2^63-1: the earlier stage's record is corrupt");
                }
                if (o % alignment != 0) {
                    throw at(where, line, c, cells.get(c), "the fixed offset " + o + " is not a multiple of the row's alignment "
                            + alignment);
                }
                offset = OptionalLong.of(o);
            }
            if (column.containsKey("hint")) {
                int c = column.get("hint");
                if (!cells.get(c).equals("-1")) {
                    cs.whole(c);
                }
            }
            if (column.containsKey("gaps") && !cells.get(column.get("gaps")).isEmpty()) {
                notes.add(id + ": gaps '" + cells.get(column.get("gaps")) + "' ignored (the buffer is kept live throughout)");
            }
            rows.add(new Row(line, id, new Lifetime((int) lower, (int) last), size, alignment, offset, cells));
        }
        return new Document(name, header, rows, notes);
    }

    /**
     * The document's rows with each buffer's offset in {@code plan} (found by id in space
     * {@link #SPACE}), as CSV text: the input's columns, then {@code offset} (unless the input
     * already has one, which is filled in).
     */
    public static String write(Document doc, Plan plan) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            write(doc, plan, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /**
     * As {@link #write(Document, Plan)}, row by row to {@code out} (UTF-8), which is not closed. A
     * plan without a buffer of a row (a plan of another document) is {@code invalid-input} naming
     * {@code plan}, before anything is written.
     */
    public static void write(Document doc, Plan plan, OutputStream out) throws IOException {
        Require.nonNull(doc, "doc");
        Require.nonNull(plan, "plan");
        Require.nonNull(out, "out");
        Map<String, PlannedBuffer> planned = new HashMap<>();
        for (PlannedBuffer b : plan.buffers()) {
            if (b.space().equals(SPACE)) {
                planned.put(b.name(), b);
            }
        }
        for (Row r : doc.rows()) {
            if (!planned.containsKey(r.id())) {
                throw Require.invalid("plan", r.id(), "it has no buffer " + r.id() + " in space " + SPACE
                        + " (line " + r.line() + " of " + doc.name() + "); the plan is not one of this document");
            }
        }
        int offsetColumn = doc.header().indexOf("offset");
        Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
        List<String> header = new ArrayList<>(doc.header());
        if (offsetColumn < 0) {
            header.add("offset");
        }
        w.write(String.join(",", header));
        w.write('\n');
        for (Row r : doc.rows()) {
            PlannedBuffer b = planned.get(r.id());
            String offset = Long.toString(b.offset());
            List<String> cells = r.cells();
            for (int c = 0; c < cells.size(); c++) {
                if (c > 0) {
                    w.write(',');
                }
                w.write(c == offsetColumn ? offset : cells.get(c));
            }
            if (offsetColumn < 0) {
                w.write(cells.isEmpty() ? offset : "," + offset);
            }
            w.write('\n');
        }
        w.flush();
    }

    /**
     * Whether {@code line} (a file's first line, a byte order mark and a carriage return allowed)
     * is a header this reader accepts as far as names go: known column names only, each once,
     * with the required ones ({@code id}, {@code lower}, {@code upper} or {@code end},
     * {@code size}) or their aliases. {@link InputKind} tells a CSV file by it.
     */
    public static boolean isHeader(String line) {
        String first = line.startsWith("\uFEFF") ? line.substring(1) : line;
        Set<String> keys = new HashSet<>();
        for (String h : fields(first)) {
            String key = ALIASES.containsKey(h) ? ALIASES.get(h) : OTHER.contains(h) ? h : null;
            if (key == null || !keys.add(key)) {
                return false;
            }
        }
        return keys.containsAll(List.of("id", "lower", "size")) && (keys.contains("upper") != keys.contains("end"));
    }

    private static List<String> fields(String line) {
        List<String> out = new ArrayList<>();
        for (String f : line.split(",", -1)) {
            out.add(strip(f));
        }
        return out;
    }

    private static String strip(String s) {
        int a = 0;
        int b = s.length();
        while (a < b && (s.charAt(a) == ' ' || s.charAt(a) == '\t')) {
            a++;
        }
        while (b > a && (s.charAt(b - 1) == ' ' || s.charAt(b - 1) == '\t' || s.charAt(b - 1) == '\r')) {
            b--;
        }
        return s.substring(a, b);
    }

    private static BerthException at(String where, int line, int column, String text, String what) {
        return BerthException.invalid(where + ":" + line + ":" + (column + 1), text, where + ": line " + line
                + ", column " + (column + 1) + ": " + what);
    }

    /** The cells of one row, read as numbers with line and column in every message. */
    private record Cells(String where, int line, List<String> header, List<String> cells) {
        long whole(int c) {
            String s = cells.get(c);
            if (s.isEmpty()) {
                throw at(where, line, c, s, column(c) + " is empty; expected a whole number");
            }
            if (s.startsWith("-") && s.length() > 1 && allDigits(s.substring(1))) {
                throw at(where, line, c, s, column(c) + " is negative: " + s);
            }
            if (!allDigits(s)) {
                throw at(where, line, c, s, column(c) + " '" + s + "' is not a whole number (decimal digits only)");
            }
            // the digits without leading zeros (one digit kept): no regular expression per cell
            int z = 0;
            while (z < s.length() - 1 && s.charAt(z) == '0') {
                z++;
            }
            int digits = s.length() - z;
            if (digits > 19 || (digits == 19 && s.substring(z).compareTo(Long.toString(Long.MAX_VALUE)) > 0)) {
                throw at(where, line, c, s, column(c) + " " + s + " is above the largest value 2^63-1 = " + Long.MAX_VALUE);
            }
            return Long.parseLong(s, z, s.length(), 10);
        }

        private String column(int c) {
            return "(" + header.get(c) + ")";
        }

        private static boolean allDigits(String s) {
            for (int i = 0; i < s.length(); i++) {
                char ch = s.charAt(i);
                if (ch < '0' || ch > '9') {
                    return false;
                }
            }
            return !s.isEmpty();
        }
    }
}
