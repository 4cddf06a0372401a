package org.atomicshards.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Every relative link in every Markdown file of the repository leads to a file that exists and, with a {@code #anchor},
 * to a heading of that file (GitHub's anchors); links from the Javadoc to the pages under {@code docs/} too.
 */
class MarkdownLinksTest {

    /** Where the Javadoc links the documentation: the repository's pages on its main branch. */
    static final String DOCS_URL = "https://github.com/atomic-shards/atomic-shards/blob/main/";

    private static final Pattern EXTERNAL = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:");
    private static final Pattern JAVADOC_DOCS_LINK = Pattern.compile(Pattern.quote(DOCS_URL) + "([^\"'#\\s)>]+)(#[^\"'\\s)>]+)?");

    @Test
    void theRepositoryHasItsDocumentation() {
        List<String> files = Markdown.files().stream().map(path -> Markdown.ROOT.relativize(path).toString()).toList();

        assertThat(files).contains("README.md", "CHANGELOG.md", "CONTRIBUTING.md", "docs/configuration.md");
    }

    @Test
    void everyRelativeLinkAndAnchorInTheMarkdownFilesResolves() {
        List<String> broken = new ArrayList<>();
        for (Path file : Markdown.files()) {
            for (Markdown.Link link : Markdown.links(Markdown.read(file))) {
                String problem = problem(file, link.target());
                if (problem != null) {
                    broken.add(Markdown.ROOT.relativize(file) + ":" + link.line() + ": (" + link.target() + ") " + problem);
                }
            }
        }

        assertThat(broken).as("links that do not resolve").isEmpty();
    }

    @Test
    void everyLinkFromTheJavadocToTheDocumentationResolves() throws IOException {
        List<String> broken = new ArrayList<>();
        int links = 0;
        try (Stream<Path> sources = Files.walk(Markdown.ROOT)) {
            for (Path source : sources.filter(path -> path.toString().endsWith(".java"))
                    .filter(path -> path.toString().contains("/src/main/java/")).toList()) {
                Matcher link = JAVADOC_DOCS_LINK.matcher(Files.readString(source));
                while (link.find()) {
                    links++;
                    String target = link.group(1) + (link.group(2) == null ? "" : link.group(2));
                    String problem = problem(Markdown.ROOT.resolve("README.md"), target);
                    if (problem != null) {
                        broken.add(Markdown.ROOT.relativize(source) + ": (" + DOCS_URL + target + ") " + problem);
                    }
                }
            }
        }

        assertThat(links).as("links from the public packages' Javadoc to the docs").isPositive();
        assertThat(broken).as("Javadoc links that do not resolve").isEmpty();
    }

    /** Why {@code target}, written in {@code file}, does not resolve; null when it does or is not ours to check. */
    static String problem(Path file, String target) {
        if (EXTERNAL.matcher(target).find()) {
            return null;
        }
        int hash = target.indexOf('#');
        String path = URLDecoder.decode(hash < 0 ? target : target.substring(0, hash), StandardCharsets.UTF_8);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        Path resolved = path.isEmpty() ? file : file.getParent().resolve(path).normalize();
        if (!resolved.startsWith(Markdown.ROOT)) {
            return "points outside the repository";
        }
        if (!Files.exists(resolved)) {
            return "no such file";
        }
        if (anchor == null) {
            return null;
        }
        if (!resolved.toString().endsWith(".md")) {
            return "an anchor into a file that is not Markdown";
        }
        return Markdown.anchors(Markdown.read(resolved)).contains(anchor)
                ? null
                : "no heading with anchor #" + anchor + " in " + Markdown.ROOT.relativize(resolved);
    }

    /** The slug rules, on the kinds of heading these pages have. */
    @Nested
    class GitHubAnchors {

        @Test
        void headingsBecomeLowerCaseWordsJoinedByHyphens() {
            assertThat(Markdown.slug("Running several instances")).isEqualTo("running-several-instances");
            assertThat(Markdown.slug("2. Configure the shards (plain JPA)")).isEqualTo("2-configure-the-shards-plain-jpa");
            assertThat(Markdown.slug("A consistent-hash ring's members")).isEqualTo("a-consistent-hash-rings-members");
        }

        @Test
        void codeKeepsItsTextAndUnderscoresStay() {
            assertThat(Markdown.slug("`advise`: choose a shard key")).isEqualTo("advise-choose-a-shard-key");
            assertThat(Markdown.slug("`schema create|update|validate`")).isEqualTo("schema-createupdatevalidate");
            assertThat(Markdown.slug("The `auto_resume` setting")).isEqualTo("the-auto_resume-setting");
        }

        @Test
        void aRepeatedHeadingIsNumbered() {
            assertThat(Markdown.anchors("# Tests\n\n## Tests\n\n```\n# not a heading\n```\n### Tests\n"))
                    .containsExactly("tests", "tests-1", "tests-2");
        }

        @Test
        void linksInCodeAreNotLinks() {
            assertThat(Markdown.links("see [a](a.md) and `[b](b.md)`\n```\n[c](c.md)\n```\n"))
                    .extracting(Markdown.Link::target).containsExactly("a.md");
        }
    }
}
