package dev.berth.cli;

import dev.berth.failure.BerthException;
import dev.berth.failure.Failure;
import dev.berth.failure.InputDetail;
import dev.berth.text.Visible;
import dev.berth.io.FailureJson;
import dev.berth.plan.InvalidPlanException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/** {@code berth}: the command line, one client of the core library. */
@Command(name = "berth", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Memory and address planner for accelerator compilers.",
        footer = {"", "Exit codes: 0 done, 1 internal error, 2 invalid-input, 3 address-not-encodable,",
                "4 arithmetic-overflow, 5 capacity-exceeded, 6 insufficient-deployment-capacity,",
                "7 host-memory-exhausted (the planner's own heap: give the JVM more with",
                "BERTH_JAVA_OPTS=-Xmx...), 130 interrupted (Ctrl-C: plan writes the best plan",
                "found so far).",
                "", "Examples:", "  berth plan examples/convnet.json --show",
                "  berth plan examples/convnet.json -o plan.json --report plan.html",
                "  berth check-deploy plan.json --provide global=16MiB",
                "  berth help plan"})
public final class Main implements Runnable {

    public static void main(String[] args) {
        Interrupts.allow();
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /**
     * Whether the command line asks for JSON before it is parsed (a usage error is reported
     * before picocli has read the options): {@code --json}, or {@code --json=true} as picocli
     * also accepts it, before a {@code --} that ends the options.
     */
    static boolean wantsJson(String[] args) {
        boolean json = false;
        for (String a : args) {
            if (a.equals("--")) {
                break;
            }
            if (a.equals("--json") || a.equalsIgnoreCase("--json=true")) {
                json = true;
            } else if (a.equalsIgnoreCase("--json=false")) {
                json = false;
            }
        }
        return json;
    }

    /** Whether the command that ran was given {@code --json}, as picocli parsed it. */
    private static boolean wantsJson(CommandLine.ParseResult parsed) {
        CommandLine.ParseResult last = parsed;
        while (last.hasSubcommand()) {
            last = last.subcommand();
        }
        return last.hasMatchedOption("--json") && Boolean.TRUE.equals(last.matchedOptionValue("--json", false));
    }

    /** The subcommands, in the order {@code --help} lists them. */
    private static final List<Class<?>> SUBCOMMANDS = List.of(PlanCommand.class, CheckDeployCommand.class,
            ReportCommand.class, DemoCommand.class, BenchCommand.class, CompletionCommand.class,
            CommandLine.HelpCommand.class);

    /**
     * The subcommands to build for {@code args}: the one named first when it is one of those that
     * need no other ({@code plan}, {@code check-deploy}, {@code report}, {@code demo}, {@code bench}),
     * else all of them ({@code --help}, {@code help}, {@code completion} and any usage error list or
     * suggest the others). Picocli builds a command's model from its annotations by reflection, so a
     * run that plans builds one model, not seven (docs/design.md, "Start-up").
     */
    static List<Class<?>> subcommands(String[] args) {
        if (args.length > 0) {
            for (Class<?> c : SUBCOMMANDS) {
                Command command = c.getAnnotation(Command.class);
                if (command.name().equals(args[0]) && c != CompletionCommand.class && c != CommandLine.HelpCommand.class) {
                    return List.of(c);
                }
            }
        }
        return SUBCOMMANDS;
    }

    /** The command line for {@code args}: {@code berth} with the {@link #subcommands} they need. */
    static CommandLine commandLine(String[] args) {
        CommandLine cl = new CommandLine(new Main());
        for (Object c : subcommands(args)) {
            cl.addSubcommand(c);
        }
        if (cl.getSubcommands().containsKey("help")) {
            cl.getSubcommands().get("help").getCommandSpec().usageMessage()
                    .footer("", "Examples:", "  berth help", "  berth help report");
        }
        return cl;
    }

    /** Runs the command line and returns the exit code (tests call this). */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        boolean jsonAsked = wantsJson(args);
        CommandLine cl = commandLine(args);
        unwrappedFooters(cl);
        cl.setOut(out);
        cl.setErr(err);
        cl.setParameterExceptionHandler((ex, a) -> {
            Failure f = new Failure.InvalidInput("usage: " + ex.getMessage() + suggestions(ex), new InputDetail.None());
            report(f, jsonAsked, out, err);
            if (!jsonAsked) {
                err.println("Try '" + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help'.");
            }
            return 2;
        });
        cl.setExecutionExceptionHandler((ex, c, parsedArgs) -> {
            boolean json = wantsJson(parsedArgs);
            if (ex instanceof BerthException be) {
                report(be.failure(), json, out, err);
                if (Interrupts.requested()) {
                    // the interrupt stopped the search before it found a plan (a finite space it had to search)
                    err.println("berth: interrupted: no plan was found before the interrupt; nothing written");
                    return Interrupts.EXIT_CODE;
                }
                return be.category().exitCode();
            }
            if (ex instanceof RejectedPlan rp) {
                // one line per violation, as for InvalidPlanException below; the category is the input's
                emit(Advice.forCommandLine(rp.failure().failure()).fields(), json, out, err, true);
                return rp.failure().category().exitCode();
            }
            if (ex instanceof InvalidPlanException ip) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("category", "internal-error");
                // one line per violation: Verdict.Invalid writes its details visibly, so its own breaks are the only ones
                m.put("message", ip.getMessage());
                emit(m, json, out, err, true);
                return 1;
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("category", "internal-error");
            m.put("message", "internal error (a bug: please report it): " + ex);
            emit(m, json, out, err);
            if (!json) {
                ex.printStackTrace(err);
            }
            return 1;
        });
        int code;
        try {
            code = cl.execute(args);
        } catch (OutOfMemoryError e) {
            // the input's data became unreachable as the error unwound: there is room to say so
            code = outOfMemory(jsonAsked, out, err);
        }
        out.flush();
        err.flush();
        return code;
    }

    /**
     * Every command's footer (its examples) printed line for line, never wrapped at the usage
     * width, so that an example pastes as one command line (contract §7).
     */
    static void unwrappedFooters(CommandLine cl) {
        cl.getHelpSectionMap().put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_FOOTER, help -> {
            StringBuilder sb = new StringBuilder();
            for (String line : help.commandSpec().usageMessage().footer()) {
                sb.append(line).append(System.lineSeparator());
            }
            return sb.toString();
        });
        cl.getSubcommands().values().forEach(Main::unwrappedFooters);
    }

    /**
     * For a misspelt option or command, the closest of the command's options (or of its
     * subcommands, for a word that is not an option) by {@link Suggestion}'s rule
     * ({@code ; did you mean '--solver'?}), or nothing.
     */
    static String suggestions(CommandLine.ParameterException ex) {
        if (!(ex instanceof CommandLine.UnmatchedArgumentException u) || u.getUnmatched().isEmpty()) {
            return "";
        }
        String given = u.getUnmatched().get(0);
        CommandLine.Model.CommandSpec spec = ex.getCommandLine().getCommandSpec();
        int eq = given.indexOf('=');
        return given.startsWith("-") ? Suggestion.didYouMean(eq > 0 ? given.substring(0, eq) : given,
                spec.optionsMap().keySet()) : Suggestion.didYouMean(given, spec.subcommands().keySet());
    }

    /** Twice the heap the JVM had, in whole GiB rounded up: always more than it had. */
    static long suggestedHeapGiB(long maxHeapBytes) {
        long gib = (maxHeapBytes >> 30) + ((maxHeapBytes & ((1L << 30) - 1)) == 0 ? 0 : 1);
        return 2 * Math.max(1, gib);
    }

    /** Exit code of {@code host-memory-exhausted}: the planner's own heap, not a limit of the plan. */
    static final int HOST_MEMORY_EXHAUSTED = 7;

    /**
     * The JVM ran out of heap: not a bug and not a limit of the plan (contract §7), so no stack trace;
     * the message gives the heap the JVM had and how to give it more (twice that, in whole GiB).
     * Outputs are written atomically, so none is left half-written.
     */
    static int outOfMemory(boolean json, PrintWriter out, PrintWriter err) {
        long max = Runtime.getRuntime().maxMemory();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("category", "host-memory-exhausted");
        m.put("message", "the planner ran out of host memory: its Java heap of " + (max >> 20) + " MiB is too small"
                + " for this input (outputs are written atomically: none is left half-written); give the JVM more,"
                + " e.g. BERTH_JAVA_OPTS=-Xmx" + suggestedHeapGiB(max) + "g ./berth ... (docs/design.md gives the"
                + " bytes per buffer)");
        m.put("heapBytes", max);
        emit(m, json, out, err);
        return HOST_MEMORY_EXHAUSTED;
    }

    static void report(Failure f, boolean json, PrintWriter out, PrintWriter err) {
        emit(Advice.forCommandLine(f).fields(), json, out, err);
    }

    private static void emit(Map<String, Object> fields, boolean json, PrintWriter out, PrintWriter err) {
        emit(fields, json, out, err, false);
    }

    /**
     * Prints a failure: as JSON on stdout, or as one message on stderr with every control
     * character of it written as its code ({@link Visible}: a name from an input file is printed
     * as such); with {@code lines}, the message's line breaks are kept and each line is made visible.
     */
    private static void emit(Map<String, Object> fields, boolean json, PrintWriter out, PrintWriter err,
                             boolean lines) {
        if (json) {
            out.println(FailureJson.toJson(fields));
        } else {
            String message = String.valueOf(fields.get("message"));
            err.println("berth: " + fields.get("category") + ": " + (lines
                    ? String.join("\n", message.lines().map(Visible::text).toList()) : Visible.text(message)));
        }
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(new CommandLine(this),
                "a command is needed: plan, check-deploy, report, demo, bench, completion");
    }

    /** {@code berth --version}: the project version (from the build), and the Java running it. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() throws IOException {
            Properties p = new Properties();
            try (InputStream in = Main.class.getResourceAsStream("version.properties")) {
                if (in != null) {
                    p.load(in);
                }
            }
            String v = p.getProperty("version", "unknown (built without version.properties)");
            return new String[]{"berth " + v, "Java " + System.getProperty("java.version") + " ("
                    + System.getProperty("java.vm.name") + ", " + System.getProperty("java.vendor") + ")"};
        }
    }
}
