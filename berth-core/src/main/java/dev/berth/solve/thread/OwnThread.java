package dev.berth.solve.thread;

/**
 * A task on a daemon thread of its own, which the caller waits for to the end: what the
 * heuristics run beside each other and what the exact search runs with a larger stack. The wait
 * does not give up when the caller is interrupted (the task polls its budget and ends soon after
 * the caller's budget does); the interrupt is kept for the caller.
 */
public final class OwnThread {
    private OwnThread() {
    }

    /** {@code task} started on a daemon thread named {@code name} with {@code stackBytes} of stack (0: the JVM's default). */
    public static Thread start(String name, long stackBytes, Runnable task) {
        Thread t = new Thread(null, task, name, stackBytes);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** Waits for {@code t} to end, even when interrupted, and then sets the caller's interrupt flag again. */
    public static void join(Thread t) {
        boolean interrupted = false;
        while (true) {
            try {
                t.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
