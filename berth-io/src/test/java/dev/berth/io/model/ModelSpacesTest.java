package dev.berth.io.model;

import dev.berth.TestData;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.io.onnx.OnnxImport;
import dev.berth.io.tflite.TfliteImport;
import dev.berth.target.AddressFormat;
import dev.berth.target.Space;
import dev.berth.target.Target;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The one choice of spaces of the ONNX and the TFLite import: the option given, else the
 * importer's names in order, else the target's only logical (external) space; each importer's
 * message when the activations' space cannot be chosen.
 */
class ModelSpacesTest {
    private static final AddressFormat F = AddressFormat.exclusive("f32", 0xFFFF_FFFFL);

    private static Target target(Space... spaces) {
        Target.Builder b = Target.builder("t");
        for (Space s : spaces) {
            b.space(s);
        }
        return b.build();
    }

    private static Space logical(String name) {
        return Space.logical(name, F).build();
    }

    private static Space external(String name) {
        return Space.external(name, F).build();
    }

    @Test
    void theOptionThenTheNamesInOrderThenTheOnlyLogicalSpace() {
        Target t = target(logical("global"), logical("arena"), logical("other"), external("flash"), external("weights"));
        assertThat(ModelSpaces.activations(t, Optional.of("other"), List.of("arena", "global"), "tensors'")).isEqualTo("other");
        assertThat(ModelSpaces.activations(t, Optional.empty(), List.of("arena", "global"), "tensors'")).isEqualTo("arena");
        assertThat(ModelSpaces.activations(t, Optional.empty(), List.of("global"), "activations'")).isEqualTo("global");
        assertThat(ModelSpaces.activations(target(logical("only"), external("flash")), Optional.empty(), List.of("global"),
                "activations'")).isEqualTo("only");
        assertThatThrownBy(() -> ModelSpaces.activations(t, Optional.of("none"), List.of("global"), "activations'"))
                .isInstanceOfSatisfying(BerthException.class, e -> assertThat(e.failure().fields())
                        .containsEntry("path", "--activation-space"));
    }

    @Test
    void constantsGoToTheOptionThenTheNamesThenTheOnlyExternalSpaceElseWithTheActivations() {
        Target t = target(logical("global"), external("flash"), external("weights"), external("rom"));
        assertThat(ModelSpaces.constants(t, Optional.of("rom"), List.of("flash", "weights"), "global")).isEqualTo("rom");
        assertThat(ModelSpaces.constants(t, Optional.empty(), List.of("flash", "weights"), "global")).isEqualTo("flash");
        assertThat(ModelSpaces.constants(t, Optional.empty(), List.of("weights"), "global")).isEqualTo("weights");
        assertThat(ModelSpaces.constants(target(logical("global"), external("rom")), Optional.empty(), List.of("weights"),
                "global")).isEqualTo("rom");
        assertThat(ModelSpaces.constants(target(logical("global"), external("a"), external("b")), Optional.empty(),
                List.of("weights"), "global")).isEqualTo("global");
        assertThatThrownBy(() -> ModelSpaces.constants(t, Optional.of("none"), List.of("weights"), "global"))
                .isInstanceOfSatisfying(BerthException.class, e -> assertThat(e.failure().fields())
                        .containsEntry("path", "--weight-space"));
    }

    @Test
    void eachImporterSaysWhichSpacesItLookedFor() {
        Target two = target(logical("a"), logical("b"));
        assertThatThrownBy(() -> OnnxImport.read(TestData.root().resolve("testdata/models/ch_ppocr_mobile_v2.0_cls_infer.onnx"),
                two, OnnxImport.Options.of("x=1x3x48x192")))
                .isInstanceOfSatisfying(BerthException.class, e -> {
                    assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
                    assertThat(e.failure().message()).isEqualTo("target t has no space 'global' and 2 logical spaces; "
                            + "choose the activations' space with --activation-space SPACE");
                });
        assertThatThrownBy(() -> TfliteImport.read(TestData.root().resolve("testdata/models/tflite/hello_world_int8.tflite"),
                two, TfliteImport.Options.of()))
                .isInstanceOfSatisfying(BerthException.class, e -> {
                    assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
                    assertThat(e.failure().message()).isEqualTo("target t has no space 'arena' or 'global' and 2 logical "
                            + "spaces; choose the tensors' space with --activation-space SPACE");
                });
    }
}
