// The Go reference of bench/scale/run.sh: what a dashboard backend built on client-go pays to
// hold the same objects. Shared informers (typed for core and DRA kinds, dynamic for the CRDs of
// Kueue, JobSet, KubeRay, KServe and the GPU Operator, as such a backend would), synced, then the
// process's RSS after a GC.
//
//	informer -kubeconfig FILE [-wire json]
//
// Prints "synced_seconds=S rss_kb=R heap_inuse_kb=H objects=N wire=W". By default the typed
// clients read the built-in kinds (Pods, Nodes, ResourceSlices, ResourceClaims) as protobuf, as
// client-go's generated clients prefer; -wire json makes them read JSON, as sextantd does, so a
// run can tell the wire format's share of client-go's lead from the rest of it. The CRDs are JSON
// either way (the API server has no protobuf for them).
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
)

func rssKB() string {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "?"
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			return strings.TrimSuffix(strings.TrimSpace(strings.TrimPrefix(line, "VmRSS:")), " kB")
		}
	}
	return "?"
}

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig file")
	wire := flag.String("wire", "protobuf", "how the typed clients read built-in kinds: protobuf (client-go's default) or json")
	flag.Parse()
	if *wire != "protobuf" && *wire != "json" {
		fmt.Fprintln(os.Stderr, "-wire: protobuf or json")
		os.Exit(2)
	}
	config, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	config.QPS = 100
	config.Burst = 200
	if *wire == "json" {
		// An explicit content type turns off the generated clients' protobuf preference.
		config.ContentType = "application/json"
	}
	started := time.Now()
	client := kubernetes.NewForConfigOrDie(config)
	typed := informers.NewSharedInformerFactory(client, 0)
	stores := []cache.SharedIndexInformer{
		typed.Core().V1().Pods().Informer(),
		typed.Core().V1().Nodes().Informer(),
		typed.Resource().V1().ResourceSlices().Informer(),
		typed.Resource().V1().ResourceClaims().Informer(),
	}
	dyn := dynamicinformer.NewDynamicSharedInformerFactory(dynamic.NewForConfigOrDie(config), 0)
	for _, gvr := range []schema.GroupVersionResource{
		{Group: "kueue.x-k8s.io", Version: "v1beta2", Resource: "workloads"},
		{Group: "kueue.x-k8s.io", Version: "v1beta2", Resource: "clusterqueues"},
		{Group: "kueue.x-k8s.io", Version: "v1beta2", Resource: "localqueues"},
		{Group: "kueue.x-k8s.io", Version: "v1beta2", Resource: "resourceflavors"},
		{Group: "jobset.x-k8s.io", Version: "v1alpha2", Resource: "jobsets"},
		{Group: "ray.io", Version: "v1", Resource: "rayclusters"},
		{Group: "ray.io", Version: "v1", Resource: "rayjobs"},
		{Group: "ray.io", Version: "v1", Resource: "rayservices"},
		{Group: "serving.kserve.io", Version: "v1beta1", Resource: "inferenceservices"},
		{Group: "serving.kserve.io", Version: "v1alpha1", Resource: "servingruntimes"},
		{Group: "serving.kserve.io", Version: "v1alpha1", Resource: "clusterservingruntimes"},
		{Group: "nvidia.com", Version: "v1", Resource: "clusterpolicies"},
	} {
		stores = append(stores, dyn.ForResource(gvr).Informer())
	}
	stop := make(chan struct{})
	typed.Start(stop)
	dyn.Start(stop)
	for _, informer := range stores {
		if !cache.WaitForCacheSync(stop, informer.HasSynced) {
			fmt.Fprintln(os.Stderr, "cache did not sync")
			os.Exit(1)
		}
	}
	synced := time.Since(started).Seconds()
	objects := 0
	for _, informer := range stores {
		objects += len(informer.GetStore().ListKeys())
	}
	runtime.GC()
	var stats runtime.MemStats
	runtime.ReadMemStats(&stats)
	fmt.Printf("synced_seconds=%.2f rss_kb=%s heap_inuse_kb=%d objects=%d wire=%s\n", synced, rssKB(), stats.HeapInuse/1024, objects, *wire)
	close(stop)
}
