package dev.berth.workload;

import java.util.Optional;

/** Why a reservation exists (the artifact's {@code origin}). */
public enum Origin {
    TENSOR("tensor"), FIXED("fixed"), TILE("tile"), DESCRIPTOR_TABLE("descriptor-table"), INSTRUCTIONS("instructions");

    private final String id;

    Origin(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    public static Optional<Origin> byId(String id) {
        for (Origin o : values()) {
            if (o.id.equals(id)) {
                return Optional.of(o);
            }
        }
        return Optional.empty();
    }
}
