// deploycheck checks the deployment files offline, with the libraries the real tools use.
//
//	deploycheck kustomize DIR...  renders each kustomization with the kustomize library (the one `kubectl kustomize`
//	                              embeds) and decodes every object strictly against the Kubernetes API types: an
//	                              unknown field (a misspelling such as `readinesProbe`), a duplicated field, a value
//	                              of the wrong type, a kind outside the API groups below, or a missing required
//	                              field (a field whose JSON tag has no omitempty, which is how the API's OpenAPI
//	                              `required` lists are derived) is an error.
//	                              Prints [{"dir", "objects": [...rendered objects], "errors": [...]}].
//	deploycheck compose FILE...   loads each compose file with compose-go (what `docker compose` uses): validation
//	                              against the Compose specification's JSON schema, interpolation of ${VAR} from this
//	                              process's environment (a missing ${VAR:?} is an error), consistency.
//	                              Prints [{"file", "project": {...the resolved model}, "errors": [...]}].
//
// The exit code is 0 when it could run (the errors are in the JSON, for the caller to report), 2 on bad usage.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"

	"github.com/compose-spec/compose-go/v2/cli"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/runtime"
	kjson "k8s.io/apimachinery/pkg/runtime/serializer/json"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
)

type result struct {
	Dir     string           `json:"dir"`
	Objects []map[string]any `json:"objects"`
	Errors  []string         `json:"errors"`
}

// The API groups a shop's manifests may use; a kind outside them is reported, so that a new kind is added here
// knowingly rather than passed unchecked.
func newScheme() *runtime.Scheme {
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{
		corev1.AddToScheme, appsv1.AddToScheme, batchv1.AddToScheme, autoscalingv2.AddToScheme,
		policyv1.AddToScheme, networkingv1.AddToScheme, rbacv1.AddToScheme,
	} {
		if err := add(scheme); err != nil {
			panic(err)
		}
	}
	return scheme
}

func main() {
	if len(os.Args) < 3 || (os.Args[1] != "kustomize" && os.Args[1] != "compose") {
		fmt.Fprintln(os.Stderr, "usage: deploycheck kustomize DIR... | deploycheck compose FILE...")
		os.Exit(2)
	}
	var results any
	if os.Args[1] == "kustomize" {
		results = checkKustomizations(os.Args[2:])
	} else {
		results = checkComposeFiles(os.Args[2:])
	}
	out := json.NewEncoder(os.Stdout)
	out.SetIndent("", " ")
	if err := out.Encode(results); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

type composeResult struct {
	File    string   `json:"file"`
	Project any      `json:"project"`
	Errors  []string `json:"errors"`
}

func checkComposeFiles(files []string) []composeResult {
	var results []composeResult
	for _, file := range files {
		r := composeResult{File: file, Errors: []string{}}
		opts, err := cli.NewProjectOptions([]string{file}, cli.WithOsEnv, cli.WithDiscardEnvFile)
		if err == nil {
			var project any
			project, err = opts.LoadProject(context.Background())
			r.Project = project
		}
		if err != nil {
			r.Errors = append(r.Errors, fmt.Sprintf("%s: %v", file, err))
		}
		results = append(results, r)
	}
	return results
}

func checkKustomizations(dirs []string) []result {
	scheme := newScheme()
	strict := kjson.NewSerializerWithOptions(kjson.DefaultMetaFactory, scheme, scheme, kjson.SerializerOptions{Strict: true})
	fs := filesys.MakeFsOnDisk()
	var results []result
	for _, dir := range dirs {
		r := result{Dir: dir, Objects: []map[string]any{}, Errors: []string{}}
		resources, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(fs, dir)
		if err != nil {
			r.Errors = append(r.Errors, fmt.Sprintf("kustomize build %s: %v", dir, err))
			results = append(results, r)
			continue
		}
		for _, res := range resources.Resources() {
			data, err := res.MarshalJSON()
			if err != nil {
				r.Errors = append(r.Errors, fmt.Sprintf("%s: %v", res.CurId(), err))
				continue
			}
			var generic map[string]any
			if err := json.Unmarshal(data, &generic); err != nil {
				r.Errors = append(r.Errors, fmt.Sprintf("%s: %v", res.CurId(), err))
				continue
			}
			r.Objects = append(r.Objects, generic)
			name := fmt.Sprintf("%s %s", res.GetKind(), res.GetName())
			if ns := res.GetNamespace(); ns != "" {
				name = fmt.Sprintf("%s %s/%s", res.GetKind(), ns, res.GetName())
			}
			obj, _, err := strict.Decode(data, nil, nil)
			if err != nil {
				r.Errors = append(r.Errors, fmt.Sprintf("%s: %v", name, err))
				if obj == nil {
					continue
				}
			}
			var missing []string
			requireFields(reflect.TypeOf(obj).Elem(), generic, "", &missing)
			sort.Strings(missing)
			for _, m := range missing {
				r.Errors = append(r.Errors, fmt.Sprintf("%s: required field %s is missing", name, m))
			}
		}
		results = append(results, r)
	}
	return results
}

var jsonUnmarshaler = reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()

// requireFields walks a decoded value beside its Go type: every struct field without omitempty must be present
// (status, written by the cluster, is not looked at), and present values are walked in turn.
func requireFields(t reflect.Type, value any, path string, missing *[]string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(jsonUnmarshaler) || value == nil {
		return // Quantity, IntOrString, Time...: a scalar in JSON, checked by the decoder
	}
	switch t.Kind() {
	case reflect.Struct:
		obj, ok := value.(map[string]any)
		if !ok {
			return
		}
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			name, opts, _ := strings.Cut(tag, ",")
			if name == "-" || !f.IsExported() {
				continue
			}
			if name == "" && (f.Anonymous || strings.Contains(opts, "inline")) {
				requireFields(f.Type, obj, path, missing)
				continue
			}
			if name == "" || name == "status" {
				continue
			}
			v, present := obj[name]
			if !present {
				if !strings.Contains(opts, "omitempty") && !strings.Contains(opts, "omitzero") {
					*missing = append(*missing, fmt.Sprintf("%q%s", name, where(path)))
				}
				continue
			}
			requireFields(f.Type, v, join(path, name), missing)
		}
	case reflect.Slice, reflect.Array:
		items, ok := value.([]any)
		if !ok {
			return
		}
		for i, item := range items {
			requireFields(t.Elem(), item, fmt.Sprintf("%s[%d]", path, i), missing)
		}
	case reflect.Map:
		entries, ok := value.(map[string]any)
		if !ok {
			return
		}
		for k, item := range entries {
			requireFields(t.Elem(), item, join(path, k), missing)
		}
	}
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func where(path string) string {
	if path == "" {
		return ""
	}
	return " in " + path
}
