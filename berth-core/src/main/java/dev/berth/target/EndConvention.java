package dev.berth.target;

import java.util.Optional;

/** Which end of a reservation a format must be able to encode (contract §3). */
public enum EndConvention {
    /** The exclusive end {@code s + r} must be encodable: {@code r <= M - s}. */
    EXCLUSIVE("exclusive"),
    /** Only the last byte must be encodable: {@code r == 0 || r - 1 <= M - s}. */
    LAST_BYTE("last-byte");

    private final String id;

    EndConvention(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    public static Optional<EndConvention> byId(String id) {
        for (EndConvention e : values()) {
            if (e.id.equals(id)) {
                return Optional.of(e);
            }
        }
        return Optional.empty();
    }
}
