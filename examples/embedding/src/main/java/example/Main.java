package example;

/** Runs every example of docs/embedding.md in its order; run.sh compares what it prints with expected-output.txt. */
public final class Main {
    public static void main(String[] args) {
        System.out.println("== FirstPlan");
        FirstPlan.main(args);
        System.out.println("== ReadingFailures");
        ReadingFailures.main(args);
        System.out.println("== PlanningOptions");
        PlanningOptions.main(args);
        System.out.println("== ReadingBack");
        ReadingBack.main(args);
    }
}
