# telebridge on the official ROS 2 Humble image.
#
#   docker build -t telebridge .
#   docker run --rm -it --net=host telebridge                      # Servosila stack + simulator
#   docker run --rm -it --net=host telebridge \
#       ros2 launch telebridge furbot.launch.py sim:=true           # any launch file
#
# Build stage: Go toolchain + colcon build of this repository.
FROM ros:humble-ros-base AS build
ARG GO_VERSION=1.26.8
ARG TARGETARCH=amd64
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates curl \
 && rm -rf /var/lib/apt/lists/* \
 && curl -fsSL "https://go.dev/dl/go${GO_VERSION}.linux-${TARGETARCH}.tar.gz" | tar -C /usr/local -xz
ENV PATH=/usr/local/go/bin:$PATH \
    GONOSUMDB=github.com/tiiuae \
    GOFLAGS=-mod=readonly
WORKDIR /ws/src/telebridge
# Modules first, so that source edits do not download them again.
COPY go.mod go.sum ./
RUN go mod download
COPY . .
WORKDIR /ws
RUN . /opt/ros/humble/setup.sh \
 && colcon build --event-handlers console_direct+ --cmake-args -DCMAKE_BUILD_TYPE=Release

# Run stage: the same base, the install tree only.
FROM ros:humble-ros-base
# The project is tested on Cyclone DDS; the image ships Fast DDS only.
RUN apt-get update \
 && apt-get install -y --no-install-recommends ros-humble-rmw-cyclonedds-cpp \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /ws/install /ws/install
RUN printf '#!/bin/bash\nset -e\nsource /opt/ros/humble/setup.bash\nsource /ws/install/setup.bash\nexec "$@"\n' > /entrypoint.sh \
 && chmod +x /entrypoint.sh
ENV RMW_IMPLEMENTATION=rmw_cyclonedds_cpp
ENTRYPOINT ["/entrypoint.sh"]
CMD ["ros2", "launch", "telebridge", "servosila.launch.py", "sim:=true"]
