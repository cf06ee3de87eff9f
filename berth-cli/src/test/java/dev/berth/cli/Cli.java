package dev.berth.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs the command line in-process and keeps what it printed. */
record Cli(int exit, String out, String err) {
    static Cli run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Cli(code, out.toString(), err.toString());
    }
}
