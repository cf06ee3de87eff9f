package dev.berth.bench;

import dev.berth.solve.SpaceProblem;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Workload files (docs/contract.md §5) of synthetic problems, for benchmarks that run the
 * command line: written line by line, one buffer per line, never as a tree in memory.
 */
public final class WorkloadFiles {
    private WorkloadFiles() {
    }

    /**
     * Writes {@code p} as workload {@code name}: item {@code i} becomes buffer {@code t<i>} in
     * {@code space}, its size in bytes, its alignment when above 1, live over its steps. Fixed
     * items are refused (none of the synthetic problems has any).
     */
    public static void write(Path file, String name, SpaceProblem p, String space) throws IOException {
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write("{\n  \"workload\": \"" + name + "\",\n  \"buffers\": [\n");
            for (int i = 0; i < p.size(); i++) {
                if (p.isFixed(i)) {
                    throw new IllegalArgumentException("item " + i + " is fixed: not written");
                }
                w.write("    { \"name\": \"t" + i + "\", \"size\": " + p.reserved(i) + ", \"space\": \"" + space + "\"");
                if (p.alignment(i) > 1) {
                    w.write(", \"alignment\": " + p.alignment(i));
                }
                w.write(", \"live\": [" + p.first(i) + ", " + p.last(i) + "] }");
                w.write(i + 1 < p.size() ? ",\n" : "\n");
            }
            w.write("  ],\n  \"fixed\": []\n}\n");
        }
    }
}
