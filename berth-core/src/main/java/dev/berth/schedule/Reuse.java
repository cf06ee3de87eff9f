package dev.berth.schedule;

/** Why an output may be written over an input: the importer's reason, which the {@link InPlace} level filters. */
public enum Reuse {
    /** The output is the input's bytes seen with another shape (Reshape, Squeeze, ...). */
    VIEW("view"),
    /** An elementwise kernel reads element i of the input before it writes element i of the output. */
    ELEMENTWISE("elementwise");

    private final String id;

    Reuse(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }
}
