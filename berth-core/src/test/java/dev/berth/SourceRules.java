package dev.berth;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The rules docs/design.md measures over a module's Java sources, for the tests of every module
 * (berth-io and berth-cli reach this class through berth-core's test jar, as they do
 * {@link TestData}). Each rule reads the source text only; {@code SourceRulesTest} shows what
 * each one finds and what it leaves alone.
 */
public final class SourceRules {
    private static final Pattern QUALIFIED = Pattern.compile(
            "(^|[^.\"A-Za-z0-9_])(java|javax|dev\\.berth|com\\.fasterxml|picocli)\\.([a-z][a-z0-9_]*\\.)*[A-Z]");
    private static final Pattern QUOTED = Pattern.compile("\"([^\"\\\\]|\\\\.)*\"");
    private static final String INVALID = "BerthException.invalid(";
    private static final String TEXT_BLOCK = "\"\"\"";
    private static final Pattern PACKAGE = Pattern.compile("package\\s+([\\w.]+)\\s*;");
    private static final Pattern USE = Pattern.compile("\\b(dev\\.berth(?:\\.[a-z]\\w*)+)\\.(?:[A-Z]|\\*)");
    private static final Pattern COMMENTS_AND_STRINGS = Pattern.compile(
            "/\\*.*?\\*/|//[^\\n]*|\"(?:\\\\.|[^\"\\\\])*\"|'(?:\\\\.|[^'\\\\])+'", Pattern.DOTALL);

    private SourceRules() {
    }

    /**
     * The lines of {@code source} that write a fully qualified name inline ({@code java.util.List},
     * {@code dev.berth.io.PlanJson}) instead of importing it, as {@code NUMBER: LINE}. Comments,
     * text in quotes or in a text block and the import and package lines do not count.
     */
    public static List<String> inlineNames(String source) {
        List<String> found = new ArrayList<>();
        boolean inComment = false;
        boolean inTextBlock = false;
        String[] lines = source.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String code = lines[i];
            if (inTextBlock) {
                int end = code.indexOf(TEXT_BLOCK);
                if (end < 0) {
                    continue;
                }
                code = code.substring(end + TEXT_BLOCK.length());
                inTextBlock = false;
            }
            if (inComment) {
                int end = code.indexOf("*/");
                if (end < 0) {
                    continue;
                }
                code = code.substring(end + 2);
                inComment = false;
            }
            String t = code.strip();
            if (t.startsWith("import ") || t.startsWith("package ") || t.startsWith("*")) {
                continue;
            }
            int block = code.indexOf(TEXT_BLOCK);
            if (block >= 0) {
                // a text block's opening delimiter ends its line (JLS 3.10.6); its lines are text
                code = code.substring(0, block);
                inTextBlock = true;
            }
            code = QUOTED.matcher(code).replaceAll("\"\"");
            int line = code.indexOf("//");
            if (line >= 0) {
                code = code.substring(0, line);
            }
            int open = code.indexOf("/*");
            if (open >= 0) {
                int close = code.indexOf("*/", open + 2);
                inComment = close < 0;
                code = code.substring(0, open) + (close < 0 ? "" : code.substring(close + 2));
            }
            if (QUALIFIED.matcher(code).find()) {
                found.add((i + 1) + ": " + lines[i].strip());
            }
        }
        return found;
    }

    /**
     * {@link #inlineNames(String)} over every {@code .java} file under {@code roots}, in path
     * order, as {@code FILE:NUMBER: LINE}.
     */
    public static List<String> inlineNames(Path... roots) {
        List<String> found = new ArrayList<>();
        for (Path f : javaFiles(roots)) {
            inlineNames(read(f)).forEach(l -> found.add(f + ":" + l));
        }
        return found;
    }

    /**
     * The calls {@code BerthException.invalid(PATH, [TEXT,] MESSAGE)} of {@code source} whose
     * MESSAGE begins with PATH and {@code ": "} written out again, which {@code Require.invalid}
     * writes, as {@code NUMBER: CALL} (the call's first line). PATH matches when MESSAGE's first
     * terms are PATH's ({@code p + ".open"} and {@code p + ".open: '" + ...}, or the literal
     * {@code "version"} and {@code "version: ..."}), spaces aside.
     */
    public static List<String> repeatedPaths(String source) {
        List<String> found = new ArrayList<>();
        int k = source.indexOf(INVALID);
        while (k >= 0) {
            int[] close = new int[1];
            List<String> args = arguments(source, k + INVALID.length(), close);
            if ((args.size() == 2 || args.size() == 3) && repeats(terms(args.get(0)), terms(args.get(args.size() - 1)))) {
                int start = source.lastIndexOf('\n', k) + 1;
                int end = source.indexOf('\n', k);
                found.add(lineOf(source, k) + ": " + source.substring(start, end < 0 ? source.length() : end).strip());
            }
            k = source.indexOf(INVALID, Math.max(close[0], k + 1));
        }
        return found;
    }

    /** {@link #repeatedPaths(String)} over every {@code .java} file under {@code roots}, as {@code FILE:NUMBER: CALL}. */
    public static List<String> repeatedPaths(Path... roots) {
        List<String> found = new ArrayList<>();
        for (Path f : javaFiles(roots)) {
            repeatedPaths(read(f)).forEach(l -> found.add(f + ":" + l));
        }
        return found;
    }

    private static boolean repeats(List<String> path, List<String> message) {
        int n = path.size();
        if (message.size() < n || !path.subList(0, n - 1).equals(message.subList(0, n - 1))) {
            return false;
        }
        String last = path.get(n - 1);
        if (literal(last)) {
            String m = message.get(n - 1);
            return literal(m) && m.startsWith(last.substring(0, last.length() - 1) + ": ");
        }
        return last.equals(message.get(n - 1)) && message.size() > n && message.get(n).startsWith("\": ");
    }

    private static boolean literal(String term) {
        return term.length() >= 2 && term.startsWith("\"") && term.endsWith("\"") && !term.startsWith("\"\"\"");
    }

    /** The top-level arguments of the call whose {@code (} is just before {@code from}; {@code close[0]} is its {@code )}. */
    private static List<String> arguments(String s, int from, int[] close) {
        List<String> args = new ArrayList<>();
        int depth = 0;
        int start = from;
        for (int j = from; j < s.length(); j++) {
            char c = s.charAt(j);
            if (c == '"' || c == '\'') {
                j = endOfLiteral(s, j) - 1;
            } else if (c == '(' || c == '[' || c == '{') {
                depth++;
            } else if ((c == ')' || c == ']' || c == '}') && depth-- == 0) {
                args.add(s.substring(start, j));
                close[0] = j;
                return args;
            } else if (c == ',' && depth == 0) {
                args.add(s.substring(start, j));
                start = j + 1;
            }
        }
        close[0] = s.length();
        return List.of();
    }

    /** The terms of a concatenation, split at its top-level {@code +}, each with the spaces outside quotes taken out. */
    private static List<String> terms(String expression) {
        List<String> terms = new ArrayList<>();
        StringBuilder term = new StringBuilder();
        int depth = 0;
        for (int j = 0; j < expression.length(); j++) {
            char c = expression.charAt(j);
            if (c == '"' || c == '\'') {
                int end = endOfLiteral(expression, j);
                term.append(expression, j, end);
                j = end - 1;
            } else if (c == '+' && depth == 0 && !increment(expression, j)) {
                terms.add(term.toString());
                term.setLength(0);
            } else if (!Character.isWhitespace(c)) {
                depth += c == '(' || c == '[' ? 1 : c == ')' || c == ']' ? -1 : 0;
                term.append(c);
            }
        }
        terms.add(term.toString());
        return terms;
    }

    private static boolean increment(String s, int at) {
        return at > 0 && s.charAt(at - 1) == '+' || at + 1 < s.length() && s.charAt(at + 1) == '+';
    }

    /** The index just after the string or character literal that begins at {@code at}. */
    private static int endOfLiteral(String s, int at) {
        char quote = s.charAt(at);
        int j = at + 1;
        while (j < s.length() && s.charAt(j) != quote) {
            j += s.charAt(j) == '\\' ? 2 : 1;
        }
        return j + 1;
    }

    private static int lineOf(String s, int at) {
        int line = 1;
        for (int j = 0; j < at; j++) {
            line += s.charAt(j) == '\n' ? 1 : 0;
        }
        return line;
    }

    /**
     * Package to the packages it uses, each with the files that use it, from the {@code .java}
     * files under {@code root}: a use is {@code dev.berth.x.Type} (or {@code dev.berth.x.*}) in an
     * import or written out, comments and strings left out; a package's use of itself is none.
     */
    public static Map<String, Map<String, Set<String>>> packageUses(Path root) {
        Map<String, Map<String, Set<String>>> uses = new TreeMap<>();
        for (Path f : javaFiles(root)) {
            if (f.getFileName().toString().equals("module-info.java")) {
                continue;
            }
            String code = COMMENTS_AND_STRINGS.matcher(read(f)).replaceAll(" ");
            Matcher pm = PACKAGE.matcher(code);
            if (!pm.find()) {
                throw new IllegalArgumentException(f + " has no package");
            }
            String pkg = pm.group(1);
            Map<String, Set<String>> out = uses.computeIfAbsent(pkg, k -> new TreeMap<>());
            Matcher m = USE.matcher(code);
            while (m.find()) {
                if (!m.group(1).equals(pkg)) {
                    out.computeIfAbsent(m.group(1), k -> new TreeSet<>()).add(f.getFileName().toString());
                }
            }
        }
        return uses;
    }

    /** The strongly connected components of more than one package (Tarjan's algorithm, iterative). */
    public static List<Set<String>> circles(Map<String, Map<String, Set<String>>> uses) {
        Set<String> nodes = new TreeSet<>(uses.keySet());
        uses.values().forEach(m -> nodes.addAll(m.keySet()));
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        List<Set<String>> out = new ArrayList<>();
        for (String start : nodes) {
            if (index.containsKey(start)) {
                continue;
            }
            // frames of the depth-first search: a node and the iterator over its successors
            Deque<Map.Entry<String, Iterator<String>>> frames = new ArrayDeque<>();
            frames.push(Map.entry(start, successors(uses, start).iterator()));
            index.put(start, index.size());
            low.put(start, index.get(start));
            stack.push(start);
            onStack.add(start);
            while (!frames.isEmpty()) {
                String v = frames.peek().getKey();
                Iterator<String> it = frames.peek().getValue();
                if (it.hasNext()) {
                    String w = it.next();
                    if (!index.containsKey(w)) {
                        index.put(w, index.size());
                        low.put(w, index.get(w));
                        stack.push(w);
                        onStack.add(w);
                        frames.push(Map.entry(w, successors(uses, w).iterator()));
                    } else if (onStack.contains(w)) {
                        low.put(v, Math.min(low.get(v), index.get(w)));
                    }
                    continue;
                }
                frames.pop();
                if (!frames.isEmpty()) {
                    String parent = frames.peek().getKey();
                    low.put(parent, Math.min(low.get(parent), low.get(v)));
                }
                if (low.get(v).equals(index.get(v))) {
                    Set<String> component = new TreeSet<>();
                    String w;
                    do {
                        w = stack.pop();
                        onStack.remove(w);
                        component.add(w);
                    } while (!w.equals(v));
                    if (component.size() > 1) {
                        out.add(component);
                    }
                }
            }
        }
        return out;
    }

    /**
     * The uses inside import circles of {@code uses}, each as {@code A -> B [FILES]}: empty when
     * no package uses one that uses it back, directly or through others.
     */
    public static List<String> circleUses(Map<String, Map<String, Set<String>>> uses) {
        List<String> report = new ArrayList<>();
        for (Set<String> circle : circles(uses)) {
            for (String a : circle) {
                for (String b : circle) {
                    Set<String> files = uses.getOrDefault(a, Map.of()).get(b);
                    if (files != null) {
                        report.add(a + " -> " + b + " " + files);
                    }
                }
            }
        }
        return report;
    }

    private static Set<String> successors(Map<String, Map<String, Set<String>>> uses, String p) {
        return uses.getOrDefault(p, Map.of()).keySet();
    }

    /** The {@code .java} files under {@code roots}, each root's in path order. */
    public static List<Path> javaFiles(Path... roots) {
        List<Path> files = new ArrayList<>();
        for (Path root : roots) {
            try (Stream<Path> walk = Files.walk(root)) {
                walk.filter(f -> f.toString().endsWith(".java")).sorted().forEach(files::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return files;
    }

    private static String read(Path f) {
        try {
            return Files.readString(f);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
