package org.mailsandbox.esdev;

import org.elasticsearch.Build;
import org.elasticsearch.client.internal.node.NodeClient;
import org.elasticsearch.cluster.ClusterState;
import org.elasticsearch.cluster.service.ClusterService;
import org.elasticsearch.rest.BaseRestHandler;
import org.elasticsearch.rest.RestRequest;
import org.elasticsearch.rest.RestResponse;
import org.elasticsearch.rest.RestStatus;
import org.elasticsearch.xcontent.XContentBuilder;

import java.util.List;
import java.util.function.Supplier;

import static org.elasticsearch.rest.RestRequest.Method.GET;
import static org.elasticsearch.rest.RestRequest.Method.HEAD;

/** GET / (cluster and version info) and HEAD / (ping), as the rest-root module answers them. */
final class RestRootInfoAction extends BaseRestHandler {
    private final Supplier<ClusterService> clusterService;

    RestRootInfoAction(Supplier<ClusterService> clusterService) {
        this.clusterService = clusterService;
    }

    @Override
    public String getName() {
        return "mail_sandbox_dev_main_action";
    }

    @Override
    public List<Route> routes() {
        return List.of(new Route(GET, "/"), new Route(HEAD, "/"));
    }

    @Override
    protected RestChannelConsumer prepareRequest(RestRequest request, NodeClient client) {
        final boolean head = request.method() == HEAD;
        return channel -> {
            ClusterService cs = clusterService.get();
            if (head) {
                channel.sendResponse(new RestResponse(RestStatus.OK, "application/json", ""));
                return;
            }
            ClusterState state = cs.state();
            Build build = Build.current();
            XContentBuilder b = channel.newBuilder();
            b.startObject();
            b.field("name", cs.localNode().getName());
            b.field("cluster_name", cs.getClusterName().value());
            b.field("cluster_uuid", state.metadata().clusterUUID());
            b.startObject("version")
                .field("number", build.qualifiedVersion())
                .field("build_flavor", build.flavor())
                .field("build_type", build.type().displayName())
                .field("build_hash", build.hash())
                .field("build_date", build.date())
                .field("build_snapshot", build.isSnapshot())
                .field("lucene_version", org.apache.lucene.util.Version.LATEST.toString())
                .field("minimum_wire_compatibility_version", build.minWireCompatVersion())
                .field("minimum_index_compatibility_version", build.minIndexCompatVersion())
                .endObject();
            b.field("tagline", "You Know, for Search");
            b.endObject();
            channel.sendResponse(new RestResponse(RestStatus.OK, b));
        };
    }

    @Override
    public boolean canTripCircuitBreaker() {
        return false;
    }
}
