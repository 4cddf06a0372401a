package org.atomicshards.processor.internal;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;
import javax.tools.Diagnostic;
import javax.tools.FileObject;
import javax.tools.StandardLocation;

import org.atomicshards.model.AttributeDescription;
import org.atomicshards.model.AtomicUnitCheck;
import org.atomicshards.model.AtomicUnitRules;
import org.atomicshards.model.EntityDescription;
import org.atomicshards.model.Message;
import org.atomicshards.model.ModelDescription;
import org.atomicshards.model.RoutingMetadata;
import org.atomicshards.model.Site;
import org.atomicshards.model.UnitModel;
import org.atomicshards.model.Violation;

/**
 * The processor's last-round work: describe the entities, run the rule book, print the violations and write the
 * routing metadata.
 */
public final class ModelCheck {

    /**
     * What the rounds found, kept as names: elements of one round must not be used in a later one, so they are
     * looked up again in the last round.
     */
    public static final class Inputs {

        private final Set<String> entities = new LinkedHashSet<>();
        private final Set<String> annotatedTypes = new LinkedHashSet<>();
        private final Set<String> shardKeyOwners = new LinkedHashSet<>();
        private final SourceTypes sources = new SourceTypes();
        private boolean usesAtomicShards;

        /** Records one round's entities, Atomic Shards annotations and source files. */
        public void collect(Set<? extends TypeElement> annotations, RoundEnvironment round) {
            for (Element root : round.getRootElements()) {
                if (root instanceof TypeElement type) {
                    sources.add(outermost(type));
                }
            }
            for (TypeElement annotation : annotations) {
                String name = annotation.getQualifiedName().toString();
                for (Element element : round.getElementsAnnotatedWith(annotation)) {
                    try {
                        record(name, element);
                    } catch (RuntimeException e) {
                        throw new ElementFailure(element, e);
                    }
                }
            }
        }

        private void record(String name, Element element) {
            if (name.equals(Names.ENTITY) && element instanceof TypeElement type) {
                entities.add(type.getQualifiedName().toString());
            } else if ((name.equals(Names.ATOMIC_UNIT) || name.equals(Names.REFERENCE_DATA)) && element instanceof TypeElement type) {
                annotatedTypes.add(type.getQualifiedName().toString());
                usesAtomicShards = true;
            } else if (name.equals(Names.SHARD_KEY) && element.getEnclosingElement() instanceof TypeElement owner) {
                shardKeyOwners.add(owner.getQualifiedName().toString());
                usesAtomicShards = true;
            }
        }

        private static TypeElement outermost(TypeElement type) {
            TypeElement outermost = type;
            for (Element current = type; current != null && !(current instanceof PackageElement);
                 current = current.getEnclosingElement()) {
                if (current instanceof TypeElement enclosing) {
                    outermost = enclosing;
                }
            }
            return outermost;
        }
    }

    private final ProcessingEnvironment environment;
    private final Elements elements;
    private final Inputs inputs;
    private final DiagnosticReporter reporter;

    public ModelCheck(ProcessingEnvironment environment, Inputs inputs) {
        this.environment = environment;
        this.elements = environment.getElementUtils();
        this.inputs = inputs;
        this.reporter = new DiagnosticReporter(environment.getMessager(), elements, inputs.sources);
    }

    public void run() {
        List<TypeElement> sourceEntities = lookUp(inputs.entities);
        ModelCollector collector = new ModelCollector(elements, environment.getTypeUtils(), inputs.sources);
        List<EntityDescription> descriptions = collector.collect(sourceEntities);
        if (!inputs.usesAtomicShards && descriptions.stream().noneMatch(ModelCheck::usesAtomicShards)) {
            return;
        }
        AnnotationPlacementCheck placement = new AnnotationPlacementCheck(elements, reporter);
        placement.checkTypes(lookUp(inputs.annotatedTypes));
        placement.checkShardKeys(shardKeyElements(), collector);

        AtomicUnitCheck check = AtomicUnitRules.check(ModelDescription.of(descriptions));
        for (Violation violation : check.report().violations()) {
            reporter.report(violation, collector);
        }
        if (reporter.errorCount() == 0) {
            writeMetadata(check.units(), sourceEntities);
        }
    }

    private void writeMetadata(UnitModel units, List<TypeElement> originatingEntities) {
        try {
            FileObject resource = environment.getFiler().createResource(StandardLocation.CLASS_OUTPUT, "",
                    RoutingMetadata.RESOURCE, originatingEntities.toArray(new Element[0]));
            try (Writer writer = resource.openWriter()) {
                RoutingMetadata.write(units, writer);
            }
        } catch (IOException | RuntimeException e) {
            reporter.print(Diagnostic.Kind.ERROR, Message.INTERNAL_ERROR.format(
                    "writing " + RoutingMetadata.RESOURCE, stackTrace(e)), null, Site.ELEMENT);
        }
    }

    private List<Element> shardKeyElements() {
        List<Element> shardKeys = new ArrayList<>();
        for (TypeElement owner : lookUp(inputs.shardKeyOwners)) {
            for (Element member : owner.getEnclosedElements()) {
                boolean fieldOrMethod = member.getKind() == ElementKind.FIELD || member.getKind() == ElementKind.METHOD;
                if (fieldOrMethod && Mirrors.has(member, Names.SHARD_KEY)) {
                    shardKeys.add(member);
                }
            }
        }
        return shardKeys;
    }

    private List<TypeElement> lookUp(Set<String> names) {
        List<TypeElement> types = new ArrayList<>();
        for (String name : names) {
            TypeElement type = elements.getTypeElement(name);
            if (type != null) {
                types.add(type);
            }
        }
        return types;
    }

    private static boolean usesAtomicShards(EntityDescription entity) {
        return entity.isAtomicUnit() || entity.isReferenceData() || usesShardKey(entity.attributes());
    }

    private static boolean usesShardKey(List<AttributeDescription> attributes) {
        return attributes.stream().anyMatch(attribute -> attribute.isShardKey() || usesShardKey(attribute.components()));
    }

    /** The stack trace, so a bug report has everything needed. */
    static String stackTrace(Throwable e) {
        StringWriter out = new StringWriter();
        e.printStackTrace(new PrintWriter(out));
        return out.toString();
    }
}
