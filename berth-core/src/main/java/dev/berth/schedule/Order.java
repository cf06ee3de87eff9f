package dev.berth.schedule;

/** Which operator orders a search may take. */
public enum Order {
    /** The operators as listed (the file's order). */
    FILE("file"),
    /** Any order that respects the data dependences and the kept relative orders. */
    BEST("best");

    private final String id;

    Order(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }
}
