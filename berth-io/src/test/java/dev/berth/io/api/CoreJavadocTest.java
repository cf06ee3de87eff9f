package dev.berth.io.api;

import dev.berth.TestData;
import org.junit.jupiter.api.Test;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.DocumentationTool;
import javax.tools.JavaFileObject;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Javadoc of berth-core's module (its exported packages) builds without a warning or an
 * error under doclint's every check but {@code missing} (a comment on every record accessor
 * and a {@code @param} for every parameter would say again what the names say): broken links,
 * bad HTML, wrong {@code @param} names and unknown tags all fail this test.
 */
class CoreJavadocTest {
    @Test
    void theCoreModulesJavadocHasNoWarnings() throws IOException {
        Path src = TestData.root().resolve("berth-core/src/main/java");
        Path out = Files.createTempDirectory("berth-javadoc");
        DocumentationTool tool = ToolProvider.getSystemDocumentationTool();
        assertThat(tool).as("a JDK with javadoc").isNotNull();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        StringWriter log = new StringWriter();
        List<String> options = List.of("-d", out.toString(), "-quiet", "-Xdoclint:all,-missing",
                "--module-source-path", "dev.berth.core=" + src, "--module", "dev.berth.core");
        boolean ok = tool.getTask(log, null, diagnostics, null, options, null).call();
        List<String> problems = diagnostics.getDiagnostics().stream()
                .filter(d -> d.getKind() == Diagnostic.Kind.WARNING || d.getKind() == Diagnostic.Kind.MANDATORY_WARNING
                        || d.getKind() == Diagnostic.Kind.ERROR)
                .map(d -> d.getSource() + ":" + d.getLineNumber() + ": " + d.getMessage(null)).toList();
        assertThat(problems).as(log.toString()).isEmpty();
        assertThat(ok).as(log.toString()).isTrue();
        assertThat(log.toString()).doesNotContain("warning");
        assertThat(out.resolve("dev.berth.core/dev/berth/plan/Planner.html")).exists();
        assertThat(out.resolve("dev.berth.core/dev/berth/admit")).doesNotExist();
    }
}
