package dev.berth.failure;

/** The closed set of error categories of the contract (§7), with their exit codes. */
public enum Category {
    INVALID_INPUT("invalid-input", 2),
    ADDRESS_NOT_ENCODABLE("address-not-encodable", 3),
    ARITHMETIC_OVERFLOW("arithmetic-overflow", 4),
    CAPACITY_EXCEEDED("capacity-exceeded", 5),
    INSUFFICIENT_DEPLOYMENT_CAPACITY("insufficient-deployment-capacity", 6);

    private final String id;
    private final int exitCode;

    Category(String id, int exitCode) {
        this.id = id;
        this.exitCode = exitCode;
    }

    /** The category as written in JSON and messages, e.g. {@code capacity-exceeded}. */
    public String id() {
        return id;
    }

    /**
     * Rank in the contract's precedence (§1) when one request breaks several limits: input,
     * then host arithmetic, then address format, then capacity (plan time before deployment).
     */
    public int precedence() {
        return switch (this) {
            case INVALID_INPUT -> 0;
            case ARITHMETIC_OVERFLOW -> 1;
            case ADDRESS_NOT_ENCODABLE -> 2;
            case CAPACITY_EXCEEDED -> 3;
            case INSUFFICIENT_DEPLOYMENT_CAPACITY -> 4;
        };
    }

    /** The process exit code of the contract. */
    public int exitCode() {
        return exitCode;
    }
}
