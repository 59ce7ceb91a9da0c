package org.mailsandbox.esdev;

import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.core.KeywordTokenizer;
import org.apache.lucene.analysis.core.WhitespaceTokenizer;
import org.apache.lucene.analysis.miscellaneous.ASCIIFoldingFilter;
import org.apache.lucene.analysis.ngram.EdgeNGramTokenFilter;
import org.apache.lucene.analysis.ngram.EdgeNGramTokenizer;
import org.apache.lucene.analysis.ngram.NGramTokenFilter;
import org.apache.lucene.analysis.ngram.NGramTokenizer;
import org.elasticsearch.cluster.service.ClusterService;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.index.IndexSettings;
import org.elasticsearch.index.analysis.AbstractTokenFilterFactory;
import org.elasticsearch.index.analysis.AbstractTokenizerFactory;
import org.elasticsearch.index.analysis.NormalizingTokenFilterFactory;
import org.elasticsearch.index.analysis.PreConfiguredTokenFilter;
import org.elasticsearch.index.analysis.PreConfiguredTokenizer;
import org.elasticsearch.index.analysis.TokenFilterFactory;
import org.elasticsearch.index.analysis.TokenizerFactory;
import org.elasticsearch.indices.analysis.AnalysisModule.AnalysisProvider;
import org.elasticsearch.plugins.ActionPlugin;
import org.elasticsearch.plugins.AnalysisPlugin;
import org.elasticsearch.plugins.Plugin;
import org.elasticsearch.rest.RestHandler;

import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Development add-on for the Elasticsearch distribution that Elastic publishes on Maven
 * Central (integ-test-zip), which carries only the server and x-pack-core/security.
 * It registers, under their usual names and with their usual parameters, the analysis
 * components a mail-sandbox mapping needs (written here on Lucene's own classes), and
 * the cluster info endpoint GET|HEAD / that clients use as "ping"/"info".
 * A full Elasticsearch provides all of these itself; mappings that use them work on both.
 */
public class SandboxDevPlugin extends Plugin implements AnalysisPlugin, ActionPlugin {

    private final AtomicReference<ClusterService> clusterService = new AtomicReference<>();

    @Override
    public Collection<?> createComponents(PluginServices services) {
        clusterService.set(services.clusterService());
        return List.of();
    }

    @Override
    public Collection<RestHandler> getRestHandlers(
        Settings settings,
        org.elasticsearch.common.io.stream.NamedWriteableRegistry namedWriteableRegistry,
        org.elasticsearch.rest.RestController restController,
        org.elasticsearch.common.settings.ClusterSettings clusterSettings,
        org.elasticsearch.common.settings.IndexScopedSettings indexScopedSettings,
        org.elasticsearch.common.settings.SettingsFilter settingsFilter,
        org.elasticsearch.cluster.metadata.IndexNameExpressionResolver indexNameExpressionResolver,
        java.util.function.Supplier<org.elasticsearch.cluster.node.DiscoveryNodes> nodesInCluster,
        java.util.function.Predicate<org.elasticsearch.features.NodeFeature> clusterSupportsFeature
    ) {
        return List.of(new RestRootInfoAction(clusterService::get));
    }

    // ------------------------------------------------- pre-configured (used by bare name)
    // As in a full Elasticsearch, "tokenizer": "ngram" without a definition of its own uses
    // these defaults; the factories below are only for custom definitions with parameters.

    @Override
    public List<PreConfiguredTokenizer> getPreConfiguredTokenizers() {
        return List.of(
            PreConfiguredTokenizer.singleton("ngram", NGramTokenizer::new),
            PreConfiguredTokenizer.singleton("edge_ngram",
                () -> new EdgeNGramTokenizer(NGramTokenizer.DEFAULT_MIN_NGRAM_SIZE, NGramTokenizer.DEFAULT_MAX_NGRAM_SIZE)),
            PreConfiguredTokenizer.singleton("whitespace", WhitespaceTokenizer::new),
            PreConfiguredTokenizer.singleton("keyword", KeywordTokenizer::new));
    }

    @Override
    public List<PreConfiguredTokenFilter> getPreConfiguredTokenFilters() {
        return List.of(
            PreConfiguredTokenFilter.singleton("asciifolding", true, ASCIIFoldingFilter::new),
            PreConfiguredTokenFilter.singleton("ngram", false, false, ts -> new NGramTokenFilter(ts, 1, 2, false)),
            PreConfiguredTokenFilter.singleton("edge_ngram", false, false, ts -> new EdgeNGramTokenFilter(ts, 1)));
    }

    // ---------------------------------------------------------------- tokenizers

    @Override
    public Map<String, AnalysisProvider<TokenizerFactory>> getTokenizers() {
        Map<String, AnalysisProvider<TokenizerFactory>> m = new TreeMap<>();
        m.put("ngram", (is, env, name, s) -> new NGramTokenizerFactory(is, s, name, false));
        m.put("edge_ngram", (is, env, name, s) -> new NGramTokenizerFactory(is, s, name, true));
        m.put("whitespace", (is, env, name, s) -> new AbstractTokenizerFactory(is, s, name) {
            private final int maxTokenLength = s.getAsInt("max_token_length", 255);
            @Override public Tokenizer create() { return new WhitespaceTokenizer(maxTokenLength); }
        });
        m.put("keyword", (is, env, name, s) -> new AbstractTokenizerFactory(is, s, name) {
            private final int bufferSize = s.getAsInt("buffer_size", 256);
            @Override public Tokenizer create() { return new KeywordTokenizer(bufferSize); }
        });
        return m;
    }

    /** ngram / edge_ngram tokenizer: min_gram (1), max_gram (2), token_chars, custom_token_chars. */
    static final class NGramTokenizerFactory extends AbstractTokenizerFactory {
        private final int minGram;
        private final int maxGram;
        private final boolean edge;
        private final TokenChars tokenChars;

        NGramTokenizerFactory(IndexSettings indexSettings, Settings settings, String name, boolean edge) {
            super(indexSettings, settings, name);
            this.edge = edge;
            this.minGram = settings.getAsInt("min_gram", 1);
            this.maxGram = settings.getAsInt("max_gram", 2);
            if (!edge) checkNgramDiff(indexSettings, minGram, maxGram, "NGram Tokenizer");
            this.tokenChars = TokenChars.parse(settings);
        }

        @Override
        public Tokenizer create() {
            if (tokenChars == null) {
                return edge ? new EdgeNGramTokenizer(minGram, maxGram) : new NGramTokenizer(minGram, maxGram);
            }
            if (edge) {
                return new EdgeNGramTokenizer(minGram, maxGram) {
                    @Override protected boolean isTokenChar(int chr) { return tokenChars.matches(chr); }
                };
            }
            return new NGramTokenizer(minGram, maxGram) {
                @Override protected boolean isTokenChar(int chr) { return tokenChars.matches(chr); }
            };
        }
    }

    /** The character classes of the token_chars parameter. */
    record TokenChars(boolean letter, boolean digit, boolean whitespace, boolean punctuation, boolean symbol,
                      Set<Integer> custom) {
        static TokenChars parse(Settings settings) {
            List<String> names = settings.getAsList("token_chars", List.of());
            if (names.isEmpty()) return null;
            boolean letter = false, digit = false, whitespace = false, punctuation = false, symbol = false;
            Set<Integer> custom = Set.of();
            for (String n : names) {
                switch (n.toLowerCase(Locale.ROOT)) {
                    case "letter" -> letter = true;
                    case "digit" -> digit = true;
                    case "whitespace" -> whitespace = true;
                    case "punctuation" -> punctuation = true;
                    case "symbol" -> symbol = true;
                    case "custom" -> {
                        String chars = settings.get("custom_token_chars");
                        if (chars == null) {
                            throw new IllegalArgumentException("Token type: [custom] requires setting [custom_token_chars]");
                        }
                        custom = Set.copyOf(chars.codePoints().boxed().toList());
                    }
                    default -> throw new IllegalArgumentException("Unknown token type: '" + n
                        + "', must be one of [letter, digit, whitespace, punctuation, symbol, custom]");
                }
            }
            return new TokenChars(letter, digit, whitespace, punctuation, symbol, custom);
        }

        boolean matches(int c) {
            if (custom.contains(c)) return true;
            if (whitespace && Character.isWhitespace(c)) return true;
            if (letter && Character.isLetter(c)) return true;
            if (digit && Character.isDigit(c)) return true;
            return switch (Character.getType(c)) {
                case Character.START_PUNCTUATION, Character.END_PUNCTUATION, Character.OTHER_PUNCTUATION,
                     Character.CONNECTOR_PUNCTUATION, Character.DASH_PUNCTUATION, Character.INITIAL_QUOTE_PUNCTUATION,
                     Character.FINAL_QUOTE_PUNCTUATION -> punctuation;
                case Character.MATH_SYMBOL, Character.CURRENCY_SYMBOL, Character.MODIFIER_SYMBOL,
                     Character.OTHER_SYMBOL -> symbol;
                default -> false;
            };
        }
    }

    static void checkNgramDiff(IndexSettings indexSettings, int minGram, int maxGram, String what) {
        int maxAllowed = indexSettings.getMaxNgramDiff();
        if (maxGram - minGram > maxAllowed) {
            throw new IllegalArgumentException("The difference between max_gram and min_gram in " + what
                + " must be less than or equal to: [" + maxAllowed + "] but was [" + (maxGram - minGram)
                + "]. This limit can be set by changing the [" + IndexSettings.MAX_NGRAM_DIFF_SETTING.getKey()
                + "] index level setting.");
        }
    }

    // ---------------------------------------------------------------- token filters

    @Override
    public Map<String, AnalysisProvider<TokenFilterFactory>> getTokenFilters() {
        Map<String, AnalysisProvider<TokenFilterFactory>> m = new TreeMap<>();
        m.put("lowercase", (is, env, name, s) -> {
            String language = s.get("language");
            if (language != null) {
                throw new IllegalArgumentException("lowercase: the [language] parameter is not supported by the "
                    + "mail-sandbox development add-on (use a full Elasticsearch)");
            }
            return new LowercaseFactory(name, s);
        });
        m.put("asciifolding", (is, env, name, s) -> new AsciiFoldingFactory(name, s));
        m.put("ngram", (is, env, name, s) -> {
            int min = s.getAsInt("min_gram", 1), max = s.getAsInt("max_gram", 2);
            boolean preserve = s.getAsBoolean("preserve_original", false);
            checkNgramDiff(is, min, max, "NGram Tokenizer");
            return new AbstractTokenFilterFactory(name, s) {
                @Override public TokenStream create(TokenStream ts) { return new NGramTokenFilter(ts, min, max, preserve); }
            };
        });
        m.put("edge_ngram", (is, env, name, s) -> {
            int min = s.getAsInt("min_gram", 1), max = s.getAsInt("max_gram", 2);
            boolean preserve = s.getAsBoolean("preserve_original", false);
            return new AbstractTokenFilterFactory(name, s) {
                @Override public TokenStream create(TokenStream ts) { return new EdgeNGramTokenFilter(ts, min, max, preserve); }
            };
        });
        return m;
    }

    static final class LowercaseFactory extends AbstractTokenFilterFactory implements NormalizingTokenFilterFactory {
        LowercaseFactory(String name, Settings settings) { super(name, settings); }
        @Override public TokenStream create(TokenStream ts) { return new LowerCaseFilter(ts); }
    }

    static final class AsciiFoldingFactory extends AbstractTokenFilterFactory implements NormalizingTokenFilterFactory {
        private final boolean preserveOriginal;
        AsciiFoldingFactory(String name, Settings settings) {
            super(name, settings);
            this.preserveOriginal = settings.getAsBoolean("preserve_original", false);
        }
        @Override public TokenStream create(TokenStream ts) { return new ASCIIFoldingFilter(ts, preserveOriginal); }
        @Override public TokenStream normalize(TokenStream ts) { return new ASCIIFoldingFilter(ts, false); }
    }
}
