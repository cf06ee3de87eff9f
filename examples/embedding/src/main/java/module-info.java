/** The embedding example: a module that requires Berth's core (docs/embedding.md). */
module example.embedding {
    requires dev.berth.core;
}
