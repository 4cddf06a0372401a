package org.atomicshards.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The documented Maven snippets are what the end-to-end builds in {@code src/it} run: the {@code maven-compiler-plugin}
 * element of the README's plain JPA snippet and the {@code sharding-annotations} dependency of
 * docs/build-time-checks.md appear verbatim (indentation aside) in every invoked project, and the README's snippets pin
 * the compiler plugin to the version this repository builds with (Maven 3.8 would otherwise pick 3.1, which ignores
 * {@code annotationProcessorPaths}) and name the version of this repository.
 */
class WiringSnippetsTest {

    private static final Path ROOT = Path.of("..");
    private static final Path INVOKED_PROJECTS = Path.of("src", "it");

    static Stream<Path> invokedProjects() throws IOException {
        try (Stream<Path> projects = Files.list(INVOKED_PROJECTS)) {
            return projects.map(project -> project.resolve("pom.xml")).filter(Files::isRegularFile).sorted().toList()
                    .stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invokedProjects")
    void everyInvokedProjectIsWiredWithTheDocumentedSnippetsVerbatim(Path pom) throws IOException {
        String plugin = pluginElement(xmlBlockAfter(readme(), "<!-- use it: plain JPA -->"), "maven-compiler-plugin");
        String dependency = element(xmlBlockAfter(buildTimeChecks(), "<!-- entity module dependency -->"), "dependency");
        List<String> projectLines = lines(Files.readString(pom));

        for (String element : List.of(dependency, plugin)) {
            assertThat(containsRun(projectLines, lines(element)))
                    .as("%s contains, line by line, the documented%n%s", pom, element).isTrue();
        }
    }

    @Test
    void theEntityModuleDependencyIsTheAnnotationsOfThisVersion() throws IOException {
        String dependency = element(xmlBlockAfter(buildTimeChecks(), "<!-- entity module dependency -->"), "dependency");

        assertThat(dependency).contains("<artifactId>sharding-annotations</artifactId>")
                .contains("<version>${atomic-shards.version}</version>");
    }

    @Test
    void useItInYourProjectGivesTheVersionThePinnedCompilerPluginAndTheProcessor() throws IOException {
        String readme = readme();
        String plainJpa = xmlBlockAfter(readme, "<!-- use it: plain JPA -->");
        String springBoot = xmlBlockAfter(readme, "<!-- use it: Spring Boot -->");
        String section = readme.substring(readme.indexOf("## Add it to your project"), readme.indexOf("<!-- use it: plain JPA -->"));

        assertThat(section).contains("mvn -B -ntp -DskipTests install").contains("`" + projectVersion() + "`");
        assertThat(plainJpa).contains("<atomic-shards.version>" + projectVersion() + "</atomic-shards.version>")
                .contains("<artifactId>sharding-hibernate</artifactId>")
                .contains("<artifactId>logback-classic</artifactId>");
        assertThat(pluginVersion(plainJpa, "maven-compiler-plugin")).isEqualTo(rootProperty("maven-compiler-plugin.version"));
        assertThat(pluginElement(plainJpa, "maven-compiler-plugin"))
                .contains("<annotationProcessorPaths>").contains("<artifactId>sharding-processor</artifactId>");
        assertThat(springBoot).contains("<artifactId>sharding-spring-boot</artifactId>");
    }

    private static String readme() throws IOException {
        return Files.readString(ROOT.resolve("README.md"));
    }

    private static String buildTimeChecks() throws IOException {
        return Files.readString(ROOT.resolve("docs").resolve("build-time-checks.md"));
    }

    /** The first {@code ```xml} block after {@code marker}. */
    private static String xmlBlockAfter(String text, String marker) {
        int at = text.indexOf(marker);
        assertThat(at).as("the page has %s", marker).isNotNegative();
        int start = text.indexOf("```xml\n", at) + "```xml\n".length();
        return text.substring(start, text.indexOf("```", start));
    }

    /** The first {@code <name>...</name>} element of {@code xml}. */
    private static String element(String xml, String name) {
        int start = xml.indexOf("<" + name + ">");
        int end = xml.indexOf("</" + name + ">", start);
        assertThat(start).as("<%s> in%n%s", name, xml).isNotNegative();
        return xml.substring(start, end + name.length() + 3);
    }

    /** The {@code <plugin>} element whose artifactId is {@code artifactId}. */
    private static String pluginElement(String xml, String artifactId) {
        Matcher plugin = Pattern.compile("<plugin>\\s*<artifactId>" + Pattern.quote(artifactId) + "</artifactId>.*?</plugin>",
                Pattern.DOTALL).matcher(xml);
        assertThat(plugin.find()).as("a <plugin> %s in%n%s", artifactId, xml).isTrue();
        return plugin.group();
    }

    private static String pluginVersion(String xml, String artifactId) {
        Matcher version = Pattern.compile("<artifactId>" + Pattern.quote(artifactId) + "</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(pluginElement(xml, artifactId));
        assertThat(version.find()).as("%s has a <version> right after its artifactId", artifactId).isTrue();
        return version.group(1);
    }

    private static String rootProperty(String name) throws IOException {
        Matcher value = Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)</" + Pattern.quote(name) + ">")
                .matcher(Files.readString(ROOT.resolve("pom.xml")));
        assertThat(value.find()).as("property %s in the root pom", name).isTrue();
        return value.group(1);
    }

    private static String projectVersion() throws IOException {
        Matcher version = Pattern.compile("<artifactId>atomic-shards-parent</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(Files.readString(ROOT.resolve("pom.xml")));
        assertThat(version.find()).isTrue();
        return version.group(1);
    }

    /** Non-blank lines, without their indentation. */
    private static List<String> lines(String text) {
        List<String> lines = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (!line.isBlank()) {
                lines.add(line.strip());
            }
        }
        return lines;
    }

    /** Whether {@code run} occurs in {@code lines} as consecutive lines. */
    private static boolean containsRun(List<String> lines, List<String> run) {
        for (int i = 0; i + run.size() <= lines.size(); i++) {
            if (lines.subList(i, i + run.size()).equals(run)) {
                return true;
            }
        }
        return false;
    }
}
