package dev.berth.workload;

import dev.berth.failure.Require;

import java.util.List;

/**
 * One operator of a workload with operators (contract §5.3): its name and the buffers it reads
 * and writes, by name. Whether the names are sound is checked with the workload ({@link Operators.Listed}).
 */
public record Operator(String name, List<String> reads, List<String> writes) {
    public Operator {
        Require.nonNull(name, "operator.name");
        reads = Require.elements(reads, "operator.reads");
        writes = Require.elements(writes, "operator.writes");
    }
}
