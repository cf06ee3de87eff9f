package dev.berth.schedule;

/** Which declared in-place pairs a search may take. */
public enum InPlace {
    /** None: every buffer has its own bytes. */
    NONE("none"),
    /** Only {@link Reuse#VIEW} pairs. */
    VIEWS("views"),
    /** {@link Reuse#VIEW} and {@link Reuse#ELEMENTWISE} pairs. */
    ELEMENTWISE("elementwise");

    private final String id;

    InPlace(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    /** True when a pair declared for {@code reason} may be taken at this level. */
    public boolean allows(Reuse reason) {
        return switch (this) {
            case NONE -> false;
            case VIEWS -> reason == Reuse.VIEW;
            case ELEMENTWISE -> true;
        };
    }
}
