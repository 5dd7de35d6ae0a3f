// no-meshes.js: telebridge's stand-in for three.js's STLLoader and
// ColladaLoader, which the vendored URDFLoader.js imports (VENDOR.md).
// The console draws the robots from the URDF's primitive geometry and
// loads no file from anywhere: a mesh in a description is reported, not
// fetched.

class NoMeshLoader {
	constructor(manager) {
		this.manager = manager;
	}

	load(url, _onLoad, _onProgress, onError) {
		const err = new Error(`mesh ${url}: the console draws primitive geometry only and fetches no mesh`);
		if (onError) onError(err);
		else throw err;
	}
}

export class STLLoader extends NoMeshLoader {}
export class ColladaLoader extends NoMeshLoader {}
